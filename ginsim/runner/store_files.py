"""What every result store on disk shares, gin's run store, Rami's deal store and the
tournament store: the names of its manifest and lock files, the bounds its manifest is
read within, and an atomic manifest writer."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from .lock import StoreError

MANIFEST = "manifest.json"  # the store's manifest, in its root
LOCK = ".lock"  # the writer's lock file, in its root (:class:`~ginsim.runner.lock.StoreLock`)
#: A manifest is read only if it is a regular file of at most this size, nesting at most
#: this deep (it nests 3 deep; its size grows about 250 bytes a chunk), and a store is
#: created only with at most ``MAX_STORE_CHUNKS`` chunks, so its manifest stays below.
MAX_MANIFEST_BYTES = 512 * 2**20
MAX_MANIFEST_DEPTH = 8
MAX_STORE_CHUNKS = 1_000_000


def save_manifest(root: Path, manifest: dict[str, Any], durable: bool = False) -> None:
    """Replace the manifest atomically; ``durable`` also flushes it to disk (the chunk
    files always are: a manifest lost to a power cut loses only its last records, and
    their chunks are played again)."""
    tmp = root / f".{MANIFEST}.{os.getpid()}.tmp"
    try:
        with open(tmp, "w") as f:
            f.write(json.dumps(manifest, indent=1) + "\n")
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, root / MANIFEST)
    except OSError as exc:
        raise StoreError(f"could not write {root / MANIFEST}: {exc.strerror or exc}; the "
                         f"chunks recorded before are intact: fix that and run the same "
                         f"command again to resume") from None
    finally:
        tmp.unlink(missing_ok=True)
