"""The agent protocol's codec (docs/agents.md): JSON lines between a referee and an agent.

One JSON object per line, always with ``"type"`` from the referee (``start``, ``hand``,
``event``, ``decide``, ``showdown``, ``game_over``, ``bye``); one answer per ``decide``
from the agent (``{"action": "discard", "card": "KD"}``). This module turns lines into
messages and back, checks an answer against the decision's legal list, and serves one
:class:`~ginsim.table.agents.Agent` on a pair of text streams (``ginsim agent``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import IO, Any

PROTOCOL_VERSION = 1
MESSAGE_TYPES = ("start", "hand", "event", "decide", "showdown", "game_over", "bye")
MAX_LINE_CHARS = 100_000  # a longer line is refused, not parsed


class ProtocolError(ValueError):
    """A line or an answer that breaks the protocol; the message says how, in one line."""


def brief_line(line: str, limit: int = 80) -> str:
    """A line shortened for an error message."""
    line = line.strip()
    return repr(line if len(line) <= limit else line[:limit] + "...")


def encode(message: dict[str, Any]) -> str:
    """One message as a JSON line (compact, ending in a newline)."""
    return json.dumps(message, separators=(",", ":")) + "\n"


def decode(line: str) -> dict[str, Any]:
    """A JSON object from one line; ProtocolError when it is not one."""
    if len(line) > MAX_LINE_CHARS:
        raise ProtocolError(f"a line of {len(line):,} characters (at most "
                            f"{MAX_LINE_CHARS:,}): {brief_line(line)}")
    try:
        message = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ProtocolError(f"bad JSON ({exc.msg}): {brief_line(line)}") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"expected a JSON object, got {brief_line(line)}")
    return message


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


def serve(agent: Any, reader: IO[str], writer: IO[str]) -> int:
    """Feed every message read from ``reader`` to ``agent.handle`` and write its answers
    to ``writer``, one line each, until ``bye`` or the end of input; the messages read."""
    count = 0
    for line in reader:
        if not line.strip():
            continue
        message = decode(line)
        count += 1
        if message.get("type") == "bye":
            break
        try:
            reply = agent.handle(message)
        except ProtocolError:
            raise
        except (KeyError, TypeError, ValueError, OverflowError, IndexError) as exc:
            raise ProtocolError(f"message {count} cannot be followed ({_why(exc)}): "
                                f"{brief_line(line)}") from None
        if reply is not None:
            writer.write(encode(reply))
            writer.flush()
    return count


def _why(exc: Exception) -> str:
    """What a message lacked or held wrong, from the error following it raised."""
    if isinstance(exc, KeyError):
        return f"a missing field or an unknown value {exc.args[0]!r}"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
