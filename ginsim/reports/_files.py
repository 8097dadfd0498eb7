"""A whole report directory filled beside its target, then swapped in (single files are
written whole by :func:`ginsim.game.inputs.files.write_bytes_atomic`)."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from ..game.inputs.files import read_head

REPORT_FILE = re.compile(r"(report\.(html|md)|[A-Za-z0-9][A-Za-z0-9_-]*\.(png|svg|csv))")
GENERATOR_MARK = '<meta name="generator" content="ginsim">'


def is_report_dir(path: Path) -> bool:
    """Whether ``path`` holds an earlier ginsim report and nothing else: a report.html
    written by ginsim plus report files (report.md, PNG, SVG, CSV)."""
    head = read_head(path / "report.html", 4000)  # a FIFO or device is no report
    if head is None or GENERATOR_MARK not in head.decode("utf-8", errors="replace"):
        return False
    return all(entry.is_file() and REPORT_FILE.fullmatch(entry.name)
               for entry in path.iterdir())


def check_report_dir(out: str | Path) -> Path:
    """Raise ValueError (one line) unless ``out`` is new, an empty directory, or a
    directory holding only an earlier ginsim report. Returns the path."""
    path = Path(out)
    if not str(out).strip():
        raise ValueError("--out is empty: give a directory for the report, e.g. --out report")
    if path.exists() and not path.is_dir():
        raise ValueError(f"{path} is a file, not a directory: give a new or empty directory "
                         "(or an earlier ginsim report's) with --out")
    if path.is_dir() and any(path.iterdir()) and not is_report_dir(path):
        raise ValueError(f"{path} holds files that are not a ginsim report: give a new or "
                         "empty directory (or an earlier ginsim report's) with --out")
    return path


def check_output_file(path: str | Path, option: str = "--csv") -> Path:
    """Raise ValueError (one line) unless ``path`` names a file that can be written: not
    empty, not a directory, in a directory that exists. Checked before the run, so a
    bad name costs nothing."""
    if not str(path).strip():
        raise ValueError(f"{option} is empty: give a file name, e.g. {option} results.csv")
    path = Path(path).expanduser()
    if path.is_dir():
        raise ValueError(f"{option} {path} is a directory: name a file, e.g. "
                         f"{option} {path / 'results.csv'}")
    parent = path.parent
    if not parent.is_dir():
        why = "is not a directory" if parent.exists() else "does not exist"
        raise ValueError(f"{option} {path}: its directory {parent} {why}; create it or "
                         "name a file elsewhere")
    return path


def replace_dir(out: str | Path, write: Callable[[Path], dict[str, Path]]
                ) -> dict[str, Path]:
    """Call ``write(temp)`` to fill a fresh sibling directory, then put it in place of
    ``out`` (an earlier report there is removed whole, so no stale file stays). Returns
    ``write``'s {name: path} with the paths moved under ``out``."""
    path = check_report_dir(out).absolute()
    temp = _fresh_sibling(path, "new")
    old = None
    try:
        written = write(temp)
        os.chmod(temp, 0o755)
        if path.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{path.name}.old-", dir=path.parent))
            os.replace(path, old / path.name)
        os.replace(temp, path)
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        if old is not None and not path.exists():
            os.replace(old / path.name, path)
        raise
    finally:
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    return {name: path / p.name for name, p in written.items()}


def _fresh_sibling(path: Path, kind: str) -> Path:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix=f".{path.name}.{kind}-", dir=path.parent))
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None


def probe_writable(out: str | Path) -> None:
    """Raise OSError naming ``out`` now if a directory cannot be written there (so a long
    run does not fail only at the end)."""
    path = Path(out).absolute()
    if path.is_dir():
        probe = path / f".ginsim-probe-{os.getpid()}"
        try:
            probe.mkdir()
            probe.rmdir()
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, str(path)) from None
        return
    _fresh_sibling(path, "probe").rmdir()
