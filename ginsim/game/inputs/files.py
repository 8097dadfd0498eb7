"""Files from strangers: chart files and store manifests are read only when they are
regular files, only up to a size bound, and JSON only after its nesting is checked.

A FIFO, a device (a manifest linked to ``/dev/zero``), a directory or a file over the
bound is refused before a byte of it is parsed, so no reader hangs or fills memory; JSON
nested deeper than its schema allows (``[[[[...`` a hundred thousand times) is refused
before :func:`json.loads` can recurse, and an object that repeats a key is refused
rather than silently keeping the last value. Every refusal is one :class:`FileDataError`
line naming the path.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any

import numpy as np


class FileDataError(ValueError):
    """A file that cannot be read as the data it should hold; the message names it."""


#: What a file that is not a regular file is, for the error message.
_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISDIR, "a directory"))


def file_kind(mode: int) -> str:
    """'a FIFO (named pipe)', 'a directory', ... for a non-regular ``st_mode``."""
    return next((words for test, words in _KINDS if test(mode)), "not a regular file")


def read_bounded(path: str | os.PathLike, max_bytes: int, what: str) -> bytes:
    """The bytes of ``path`` if it is a regular file (a symlink to one is fine) of at
    most ``max_bytes``; otherwise a one-line :class:`FileDataError` naming it.

    Opened non-blocking, so a FIFO is seen (by ``fstat``) instead of waited on; read
    with a bound, so a file that grows while it is read is still refused.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise FileDataError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileDataError(f"{what} {path} is {file_kind(info.st_mode)}, not a regular "
                                f"file")
        if info.st_size > max_bytes:
            raise FileDataError(f"{what} {path} is {info.st_size:,} bytes, over the "
                                f"{max_bytes:,} such a file can hold")
        chunks, left = [], max_bytes + 1
        while left > 0:
            part = os.read(fd, min(left, 1 << 20))
            if not part:
                break
            chunks.append(part)
            left -= len(part)
    except OSError as exc:
        raise FileDataError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > max_bytes:
        raise FileDataError(f"{what} {path} grew over the {max_bytes:,} bytes such a file "
                            f"can hold while it was read")
    return data


def read_head(path: str | os.PathLike, max_bytes: int) -> bytes | None:
    """The first ``max_bytes`` of ``path`` if it is a regular file, else None (a FIFO is
    not waited on, a device not read): for sniffing what a file is."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        return os.read(fd, max_bytes) if stat.S_ISREG(os.fstat(fd).st_mode) else None
    except OSError:
        return None
    finally:
        os.close(fd)


# A JSON string (possessive: linear time, even unterminated).
_JSON_STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+"', re.S)


_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def json_depth(data: bytes) -> int:
    """How deep arrays and objects nest in JSON text (brackets inside strings do not
    count); linear time, no recursion and memory in proportion to the brackets, so it
    runs before parsing."""
    brackets = _JSON_STRING.sub(b"", data).translate(None, _NOT_BRACKETS)
    codes = np.frombuffer(brackets, dtype=np.uint8)
    step = np.where((codes == 0x5B) | (codes == 0x7B), 1, -1)
    return int(np.cumsum(step).max(initial=0))


def _no_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _RepeatedKey(key)
            seen.add(key)
    return out


class _RepeatedKey(Exception):
    pass


def _refuse_constant(name: str) -> Any:
    raise _BadConstant(name)


class _BadConstant(Exception):
    pass


def parse_json(data: bytes, where: str, max_depth: int, hint: str = "") -> Any:
    """Parsed JSON of ``data`` (read from ``where``) after checking it nests at most
    ``max_depth`` deep; objects repeating a key and NaN/Infinity are refused. One-line
    :class:`FileDataError` naming ``where`` (``hint`` says how to fix it)."""
    tail = f"; {hint}" if hint else ""
    depth = json_depth(data)
    if depth > max_depth:
        raise FileDataError(f"{where} nests {depth:,} levels deep, at most {max_depth} are "
                            f"allowed{tail}")
    try:
        return json.loads(data, object_pairs_hook=_no_repeated_keys,
                          parse_constant=_refuse_constant)
    except _RepeatedKey as exc:
        raise FileDataError(f"{where} repeats the key {json.dumps(str(exc.args[0]))[:60]} "
                            f"in one object{tail}") from None
    except _BadConstant as exc:
        raise FileDataError(f"{where} holds {exc.args[0]}, which is not JSON{tail}") from None
    except UnicodeDecodeError:
        raise FileDataError(f"{where} is not UTF-8 text{tail}") from None
    except json.JSONDecodeError as exc:
        raise FileDataError(f"{where} is not valid JSON (line {exc.lineno}: {exc.msg}){tail}"
                            ) from None
    except (ValueError, RecursionError) as exc:  # e.g. an integer of 10**5 digits
        raise FileDataError(f"{where} is not valid JSON ({type(exc).__name__}){tail}"
                            ) from None


def decode_text(data: bytes, where: str) -> str:
    """``data`` as UTF-8 text (a byte-order mark is dropped); FileDataError if not."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FileDataError(f"{where} is not UTF-8 text (byte {exc.start:,})") from None


def is_regular(path: Path) -> bool:
    """Whether ``path`` is a regular file (following links) without opening it."""
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except (OSError, ValueError):
        return False
