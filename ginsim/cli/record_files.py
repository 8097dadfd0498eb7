"""Where ``ginsim play --record FILE`` and ``ginsim match --record DIR`` write game
records (docs/records.md): each name checked before the first hand, so a bad one costs
nothing, and no file already there is overwritten."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from .options import UsageError

#: ``ginsim play``'s record when ``--record`` is not given: a new file here.
DEFAULT_NAME = "ginsim-game-{:%Y%m%d-%H%M%S}.jsonl"


def play_record_file(value: str | None, now: datetime | None = None) -> Path:
    """The file ``ginsim play`` writes its record to: ``--record FILE`` (a new file in a
    directory that exists), else a new dated name in the current directory."""
    if value is None:
        path = Path(DEFAULT_NAME.format(now or datetime.now()))
        stem, k = path.stem, 2
        while path.exists():
            path, k = Path(f"{stem}-{k}.jsonl"), k + 1
        return path
    from ..reports._files import check_output_file

    path = check_output_file(value, "--record")
    if path.exists():
        raise UsageError(f"--record {path} already exists: records are never overwritten; "
                         f"name a new file")
    return path


def match_record_dir(value: str, games: int) -> Path:
    """``ginsim match --record DIR``: a new or empty directory (created now, its parent
    must exist), to hold one file per game."""
    path = Path(value).expanduser()
    if not str(value).strip():
        raise UsageError("--record is empty: give a directory for the games' records, e.g. "
                         "--record games")
    if path.exists() and not path.is_dir():
        raise UsageError(f"--record {path} is a file: give a new or empty directory")
    if path.is_dir() and any(path.iterdir()):
        raise UsageError(f"--record {path} already holds files: give a new or empty "
                         f"directory (records are never overwritten)")
    if not path.parent.is_dir():
        raise UsageError(f"--record {path}: its directory {path.parent} does not exist; "
                         f"create it or name a directory elsewhere")
    path.mkdir(exist_ok=True)
    return path


def game_file(folder: Path, game: int, games: int) -> Path:
    """Game ``game``'s record in ``folder``: ``game-0000.jsonl``, numbered from 0 with as
    many digits as the last game needs (at least four), so the names sort in order."""
    return folder / f"game-{game:0{max(4, len(str(games - 1)))}d}.jsonl"
