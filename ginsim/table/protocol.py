"""The agent protocol's codec (docs/agents.md): JSON lines between a referee and an agent.

One JSON object per line, always with ``"type"`` from the referee (``start``, ``hand``,
``event``, ``decide``, ``showdown``, ``game_over``, ``bye``); one answer per ``decide``
from the agent (``{"action": "discard", "card": "KD"}``). This module turns lines into
messages and back, checks an answer against the decision's legal list, and serves one
:class:`~ginsim.table.agents.Agent` on a pair of text streams (``ginsim agent``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from ..game.inputs.files import json_depth

PROTOCOL_VERSION = 1
MESSAGE_TYPES = ("start", "hand", "event", "decide", "showdown", "game_over", "bye")
#: The bounds every line read is held to, from a referee or from an agent: the longest
#: line in bytes (checked while it is read, so a line without end is refused after this
#: many bytes, never held whole), the deepest nesting of arrays and objects (a showdown
#: nests three deep) and the most digits of an integer (a seed has 20).
MAX_LINE_BYTES = 100_000
MAX_LINE_CHARS = MAX_LINE_BYTES  # the name of earlier versions
MAX_DEPTH = 8
MAX_INT_DIGITS = 20
READ_CHUNK = 65_536  # bytes asked for by one read


class ProtocolError(ValueError):
    """A line or an answer that breaks the protocol; the message says how, in one line."""


def brief_line(line: str | bytes, limit: int = 80) -> str:
    """A line shortened for an error message."""
    if isinstance(line, bytes):
        line = line[:limit * 4].decode("utf-8", errors="replace")
    line = line.strip()
    return repr(line if len(line) <= limit else line[:limit] + "...")


def encode(message: dict[str, Any]) -> str:
    """One message as a JSON line (compact, ending in a newline)."""
    return json.dumps(message, separators=(",", ":")) + "\n"


def _bounded_int(text: str) -> int:
    """A JSON integer of at most :data:`MAX_INT_DIGITS` digits (Python's own limit, 4,300,
    ends in a message of its own and converting costs time quadratic in the digits)."""
    digits = len(text) - text.startswith("-")
    if digits > MAX_INT_DIGITS:
        raise ProtocolError(f"an integer of {digits:,} digits (at most {MAX_INT_DIGITS}): "
                            f"{brief_line(text, 24)}")
    return int(text)


class _NotJson(Exception):
    """NaN, Infinity or -Infinity in a line: Python's json reads them, JSON has none."""


def _refuse_constant(name: str) -> Any:
    raise _NotJson(name)


def decode(line: str | bytes) -> dict[str, Any]:
    """A JSON object from one line within the protocol's bounds (its bytes, nesting and
    integer digits, each checked before the part it guards is parsed); ProtocolError
    when it is not one."""
    data = line if isinstance(line, bytes) else line.encode("utf-8", errors="surrogatepass")
    if len(data) > MAX_LINE_BYTES:
        raise ProtocolError(f"a line of {len(data):,} bytes (at most {MAX_LINE_BYTES:,}): "
                            f"{brief_line(data)}")
    depth = json_depth(data)
    if depth > MAX_DEPTH:
        raise ProtocolError(f"JSON nested {depth:,} deep (at most {MAX_DEPTH}): "
                            f"{brief_line(data)}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProtocolError(f"a line that is not UTF-8 text (byte {exc.start:,}): "
                            f"{brief_line(data)}") from None
    try:
        message = json.loads(text, parse_int=_bounded_int, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise ProtocolError(f"bad JSON ({exc.msg}): {brief_line(text)}") from None
    except _NotJson as exc:
        raise ProtocolError(f"bad JSON ({exc.args[0]} is not JSON): {brief_line(text)}"
                            ) from None
    except RecursionError:  # not reached within MAX_DEPTH; kept so no traceback can escape
        raise ProtocolError(f"JSON nested too deep: {brief_line(text)}") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"expected a JSON object, got {brief_line(text)}")
    return message


class LineReader:
    """The protocol's one line reader: lines from ``read(n)`` (a callable giving at most
    ``n`` bytes or characters, ``b""`` at the end), each within :data:`MAX_LINE_BYTES`.
    A line longer than that is refused as soon as its first :data:`MAX_LINE_BYTES` bytes
    have come without a newline, so an endless line never fills memory."""

    def __init__(self, read: Callable[[int], bytes | str],
                 max_bytes: int = MAX_LINE_BYTES) -> None:
        self._read, self.max_bytes = read, max_bytes
        self._buffer = b""
        self.ended = False

    def feed(self, chunk: bytes | str) -> None:
        """Add what was read; ProtocolError when the line under way is over the bound."""
        if isinstance(chunk, str):
            chunk = chunk.encode("utf-8", errors="surrogatepass")
        if not chunk:
            self.ended = True
            return
        self._buffer += chunk
        start = self._buffer.rfind(b"\n") + 1  # the line under way (a whole line longer
        if len(self._buffer) - start > self.max_bytes:  # than the bound fails in decode)
            raise ProtocolError(f"a line of more than {self.max_bytes:,} bytes without its "
                                f"end: {brief_line(self._buffer[start:start + 200])}")

    def pop_line(self) -> bytes | None:
        """The next whole line (without its newline), None until one has come; at the
        end of input, what is left (None when nothing is)."""
        end = self._buffer.find(b"\n")
        if end < 0:
            if self.ended and self._buffer:
                line, self._buffer = self._buffer, b""
                return line
            return None
        line, self._buffer = self._buffer[:end], self._buffer[end + 1:]
        return line

    def lines(self) -> Iterator[bytes]:
        """Every line until the end of input, reading :data:`READ_CHUNK` at a time."""
        while True:
            line = self.pop_line()
            if line is not None:
                yield line
                continue
            if self.ended:
                return
            self.feed(self._read(READ_CHUNK))


def stream_reader(stream: IO[Any]) -> LineReader:
    """A :class:`LineReader` on a stream: the bytes of a binary or text file as they
    come (``read1``: what is there, without waiting for a full chunk), else a text
    stream's ``readline`` bounded by the chunk size (``io.StringIO``)."""
    raw = getattr(stream, "buffer", stream)
    if hasattr(raw, "read1"):
        return LineReader(raw.read1)
    return LineReader(stream.readline)


def answer_text(answer: dict[str, Any], legal: Iterable[str]) -> str:
    """The action text (``Action.text()`` form, e.g. ``discard KD``) of an agent's answer
    to a decision, if it is one of ``legal``; ProtocolError naming the answer otherwise."""
    legal = list(legal)
    action = answer.get("action")
    if not isinstance(action, str):
        raise ProtocolError(f"an answer without an \"action\": {json.dumps(answer)[:80]}")
    card = answer.get("card")
    text = action.replace("_", " ")
    if card is not None:
        if not isinstance(card, str):
            raise ProtocolError(f"\"card\" must be a card such as \"KD\", got {card!r}")
        text = f"{text} {card.strip().upper().replace('10', 'T')}"
    if text not in legal:
        raise ProtocolError(f"answered {text!r}, which is not legal here (legal: "
                            f"{', '.join(legal[:12])}{', ...' if len(legal) > 12 else ''})")
    return text


def serve(agent: Any, reader: IO[Any], writer: IO[str]) -> int:
    """Feed every message read from ``reader`` to ``agent.handle`` and write its answers
    to ``writer``, one line each, until ``bye`` or the end of input; the messages read.
    A line out of bounds, or one the agent cannot follow, is a one-line ProtocolError
    naming the message by its number."""
    count = 0
    lines = stream_reader(reader).lines()
    while True:
        try:
            line = next(lines, None)
        except ProtocolError as exc:
            raise ProtocolError(f"message {count + 1}: {exc}") from None
        if line is None:
            return count
        if not line.strip():
            continue
        count += 1
        try:
            message = decode(line)
        except ProtocolError as exc:
            raise ProtocolError(f"message {count}: {exc}") from None
        if message.get("type") == "bye":
            return count
        try:
            reply = agent.handle(message)
        except ProtocolError:
            raise
        except (KeyError, TypeError, ValueError, OverflowError, IndexError,
                AttributeError) as exc:
            raise ProtocolError(f"message {count} cannot be followed ({_why(exc)}): "
                                f"{brief_line(line)}") from None
        if reply is not None:
            writer.write(encode(reply))
            writer.flush()


def _why(exc: Exception) -> str:
    """What a message lacked or held wrong, from the error following it raised."""
    if isinstance(exc, KeyError):
        return f"a missing field or an unknown value {exc.args[0]!r}"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
