"""Files from strangers: chart files, store manifests and model files are read only when
they are regular files, only up to a size bound, JSON only after its nesting is checked
and ``.npz`` arrays only after their zip directory and headers are (:func:`read_npz`).

A FIFO, a device (a manifest linked to ``/dev/zero``), a directory or a file over the
bound is refused before a byte of it is parsed, so no reader hangs or fills memory; JSON
nested deeper than its schema allows (``[[[[...`` a hundred thousand times) is refused
before :func:`json.loads` can recurse, and an object that repeats a key is refused
rather than silently keeping the last value. Every refusal is one :class:`FileDataError`
line naming the path. Files ginsim writes are written whole or not at all
(:func:`write_bytes_atomic`).
"""

from __future__ import annotations

import io
import json
import os
import re
import stat
import struct
import tempfile
import zipfile
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
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


@dataclass(frozen=True)
class ArraySpec:
    """What one array of an ``.npz`` file must be: a dtype of one of ``kinds`` (numpy's
    kind letters: ``f`` floats, ``i`` ints, ``U`` text), one dimension of at most
    ``max_items`` values, and whether the file must hold it."""

    kinds: str
    max_items: int
    required: bool = True


#: Bounds on an ``.npz`` file of arrays (:func:`read_npz`): its bytes, its members, each
#: member's bytes unpacked, and how far a member may unpack beyond its packed size.
NPZ_MAX_BYTES = 4_000_000
NPZ_MAX_MEMBERS = 16
NPZ_MAX_MEMBER_BYTES = 1_000_000
NPZ_MAX_RATIO = 50
#: The ``.npy`` format versions whose headers numpy reads in public functions.
_NPY_HEADERS = {(1, 0): np.lib.format.read_array_header_1_0,
                (2, 0): np.lib.format.read_array_header_2_0}
#: What a damaged zip or ``.npy`` raises inside the readers.
_NPZ_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, RuntimeError,
               EOFError, OSError, ValueError, TypeError, KeyError, SyntaxError,
               zlib.error, struct.error, IndexError)


def read_npz(path: str | os.PathLike, what: str, arrays: Mapping[str, ArraySpec],
             hint: str = "") -> dict[str, np.ndarray]:
    """The arrays of an ``.npz`` file (as :func:`numpy.savez` writes it) named in
    ``arrays``, each checked against its :class:`ArraySpec`; floats must be finite.

    Sizes are checked before anything is unpacked: the file's bytes, the count of its
    members and each member's size and packing ratio as the zip directory states them
    (a member is never unpacked beyond its stated size), then each ``.npy`` header's
    dtype and shape; Python objects (pickles) are refused unread. Every refusal is one
    :class:`FileDataError` line naming ``what`` and ``path`` (``hint``: how to fix it).
    """
    data = read_bounded(path, NPZ_MAX_BYTES, what)
    tail = f"; {hint}" if hint else ""

    def refuse(problem: str) -> FileDataError:
        return FileDataError(f"{what} {path} {problem}{tail}")

    if not data:
        raise refuse("is empty")
    if data.startswith(b"\x93NUMPY"):
        raise refuse("is one .npy array, not an .npz file of named arrays")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = _npz_members(archive, arrays, refuse)
            found = {name: _npy_array(archive, info, arrays[name], refuse)
                     for name, info in members.items()}
    except FileDataError:
        raise
    except _NPZ_ERRORS as exc:
        detail = " ".join(str(exc).split())[:120]
        raise refuse(f"is not a readable .npz file ({type(exc).__name__}"
                     f"{': ' + detail if detail else ''})") from None
    return found


def _npz_members(archive: zipfile.ZipFile, arrays: Mapping[str, ArraySpec], refuse
                 ) -> dict[str, zipfile.ZipInfo]:
    """The members of ``archive`` by array name, after the checks of its directory."""
    infos = archive.infolist()
    if len(infos) > NPZ_MAX_MEMBERS:
        raise refuse(f"holds {len(infos):,} members, more than the {NPZ_MAX_MEMBERS} such a "
                     f"file may hold")
    members: dict[str, zipfile.ZipInfo] = {}
    for info in infos:
        name = info.filename.removesuffix(".npy")
        if name not in arrays or not info.filename.endswith(".npy"):
            raise refuse(f"holds a member {info.filename[:60]!r}, which is none of the "
                         f"arrays {', '.join(arrays)}")
        if name in members:
            raise refuse(f"holds the array {name} twice")
        if info.flag_bits & 0x1:
            raise refuse(f"holds the array {name} encrypted")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise refuse(f"packs the array {name} with zip method {info.compress_type}, not "
                         f"stored or deflated as numpy writes it")
        if info.file_size > NPZ_MAX_MEMBER_BYTES:
            raise refuse(f"states that the array {name} unpacks to {info.file_size:,} bytes, "
                         f"over the {NPZ_MAX_MEMBER_BYTES:,} an array may hold")
        if info.file_size > NPZ_MAX_RATIO * max(info.compress_size, 1):
            raise refuse(f"states that the array {name} unpacks to {info.file_size:,} bytes "
                         f"from {info.compress_size:,}, more than {NPZ_MAX_RATIO} times "
                         f"its packed size (a zip bomb?)")
        members[name] = info
    missing = [name for name, spec in arrays.items() if spec.required and name not in members]
    if missing:
        raise refuse(f"lacks the array{'s' * (len(missing) > 1)} {', '.join(missing)}")
    return members


def _npy_array(archive: zipfile.ZipFile, info: zipfile.ZipInfo, spec: ArraySpec, refuse
               ) -> np.ndarray:
    """One member's array: its header checked against ``spec`` before its data is read."""
    name = info.filename.removesuffix(".npy")
    with archive.open(info) as member:
        raw = member.read(info.file_size + 1)
    if len(raw) != info.file_size:
        raise refuse(f"holds the array {name} in {len(raw):,} bytes, not the "
                     f"{info.file_size:,} its directory states")
    stream = io.BytesIO(raw)
    version = np.lib.format.read_magic(stream)
    if version not in _NPY_HEADERS:
        raise refuse(f"holds the array {name} in .npy version {version}, not 1.0 or 2.0")
    shape, _, dtype = _NPY_HEADERS[version](stream)  # one row: the order is moot
    if dtype.hasobject:
        raise refuse(f"holds Python objects in the array {name}; pickles are not read")
    if dtype.kind not in spec.kinds or dtype.subdtype is not None:
        raise refuse(f"holds the array {name} as {dtype.str}, not {_kind_words(spec.kinds)}")
    if len(shape) != 1 or shape[0] > spec.max_items:
        raise refuse(f"holds the array {name} in the shape {shape}, not one row of at most "
                     f"{spec.max_items:,} values")
    body = raw[stream.tell():]
    if len(body) != shape[0] * dtype.itemsize:
        raise refuse(f"holds {len(body):,} bytes of data for the array {name}, not the "
                     f"{shape[0] * dtype.itemsize:,} its header states")
    array = np.frombuffer(body, dtype=dtype).copy()
    if dtype.kind in "fc" and not np.isfinite(array).all():
        raise refuse(f"holds NaN or infinite values in the array {name}")
    return array


def _kind_words(kinds: str) -> str:
    words = {"f": "floats", "i": "integers", "u": "unsigned integers", "U": "text",
             "b": "booleans", "c": "complex numbers"}
    return " or ".join(words.get(kind, kind) for kind in kinds)


def write_bytes_atomic(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` so readers see the old file or the new one, never a part."""
    path = Path(path)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(temp, 0o644)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return path


def write_text_atomic(path: str | Path, text: str) -> Path:
    """UTF-8 text version of :func:`write_bytes_atomic`."""
    return write_bytes_atomic(path, text.encode("utf-8"))
