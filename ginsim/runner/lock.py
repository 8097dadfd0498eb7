"""A lock file that lets one process at a time write a result store.

Created with ``O_CREAT | O_EXCL`` (atomic on local and NFSv3+ file systems) and holding
the writer's host name and pid. A lock left by a process that no longer runs on this
host (a SIGKILL, a power cut) is stale and is taken over; a lock from another host
cannot be checked and is refused, with the path to delete if that writer is gone.
"""

from __future__ import annotations

import json
import os
import socket
import time
from pathlib import Path

from ..game.inputs.files import FileDataError, parse_json, read_bounded
from ..game.inputs.specs import brief


class StoreError(ValueError):
    """A result store that cannot be used as asked; the message says why and what to do.

    The message is one line whatever the paths in it hold: a line break in a directory
    name is shown escaped (``\\n``), as the CLI's one-line errors need."""

    def __init__(self, message: str = "") -> None:
        super().__init__(str(message).replace("\r", "\\r").replace("\n", "\\n"))


class StoreLockedError(StoreError):
    """Another live process is writing the store."""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        return True
    return True


#: A lock file holds a small JSON object; anything larger or of another kind is not one.
MAX_LOCK_BYTES = 4096
#: Process ids are positive and below Linux's largest ``pid_max`` (2**22).
MAX_PID = 2**22
LOCK_KEYS = frozenset(("host", "pid", "since"))


def read_owner(path: Path) -> dict:
    """The writer a lock file names (``host``, ``pid``, ``since``); FileDataError if the
    file is not a regular file of this form (a FIFO is refused, not waited on)."""
    owner = parse_json(read_bounded(path, MAX_LOCK_BYTES, "lock file"), str(path), 2)
    if not isinstance(owner, dict) or set(owner) != LOCK_KEYS:
        raise FileDataError(f"expected an object with {', '.join(sorted(LOCK_KEYS))}")
    host, pid, since = owner["host"], owner["pid"], owner["since"]
    if not isinstance(host, str) or not 0 < len(host) <= 255:
        raise FileDataError(f"host must be a host name, got {brief(host, 40)}")
    if type(pid) is not int or not 0 < pid <= MAX_PID:
        raise FileDataError(f"pid must be a process id 1..{MAX_PID}, got {brief(pid, 40)}")
    if isinstance(since, bool) or not isinstance(since, (int, float)):
        raise FileDataError(f"since must be a time stamp, got {brief(since, 40)}")
    return owner


class StoreLock:
    """Context manager holding ``path`` (a lock file) for this process."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.held = False

    def acquire(self) -> None:
        """Take the lock, replacing a stale one; StoreLockedError if a writer is live."""
        me = {"host": socket.gethostname(), "pid": os.getpid(), "since": time.time()}
        for _ in range(3):
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                self._clear_if_stale()
                continue
            except OSError as exc:
                raise StoreError(f"cannot create the lock {self.path}: "
                                 f"{exc.strerror or exc}; the store directory is not "
                                 f"writable (reading it with ginsim.load needs no lock; copy "
                                 f"it somewhere writable to resume it); nothing was changed"
                                 ) from None
            try:
                with os.fdopen(fd, "w") as f:
                    json.dump(me, f)
            except OSError as exc:
                self.path.unlink(missing_ok=True)
                raise StoreError(f"cannot write the lock {self.path}: "
                                 f"{exc.strerror or exc}; free some space and run again "
                                 f"(nothing was changed)") from None
            self.held = True
            return
        raise StoreLockedError(f"could not take the lock {self.path}: it keeps reappearing; "
                               f"is another ginsim run starting on the same store?")

    def _clear_if_stale(self) -> None:
        try:
            owner = read_owner(self.path)
        except FileDataError as exc:
            if not self.path.exists() and not self.path.is_symlink():
                return  # released meanwhile: try again
            raise StoreLockedError(
                f"{self.path} is not a ginsim lock file ({exc}); if no ginsim run is writing "
                f"this store, delete it and run again") from None
        host, pid = owner["host"], owner["pid"]
        if host != socket.gethostname():
            raise StoreLockedError(
                f"{self.path.parent} is being written by process {pid} on host {host}; wait "
                f"for it to finish, or delete {self.path} if that run is gone")
        if _alive(pid) and pid != os.getpid():
            raise StoreLockedError(
                f"{self.path.parent} is being written by process {pid} (lock {self.path}); "
                f"wait for it to finish or stop it, then run again")
        # Stale: move it aside under a unique name first, so two processes clearing the
        # same stale lock cannot delete each other's fresh one.
        aside = self.path.with_name(f"{self.path.name}.stale.{os.getpid()}")
        try:
            os.replace(self.path, aside)
        except FileNotFoundError:
            return
        except OSError as exc:
            raise StoreLockedError(f"{self.path} is left by process {pid}, which has ended, "
                                   f"but it cannot be removed ({exc.strerror or exc}); the "
                                   f"store directory is not writable") from None
        try:
            if read_owner(aside) != owner:  # moved a fresh lock: put it back
                os.link(aside, self.path)
        except (OSError, ValueError):
            pass
        aside.unlink(missing_ok=True)

    def release(self) -> None:
        """Drop the lock (only if this object holds it)."""
        if self.held:
            self.held = False
            try:
                self.path.unlink()
            except OSError:  # gone already, or the directory turned read-only
                pass

    def __enter__(self) -> StoreLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
