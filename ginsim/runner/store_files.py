"""What every result store on disk shares, gin's run store and Rami's deal store: the names
of its manifest and lock files, and the bounds its manifest is read within."""

from __future__ import annotations

MANIFEST = "manifest.json"  # the store's manifest, in its root
LOCK = ".lock"  # the writer's lock file, in its root (:class:`~ginsim.runner.lock.StoreLock`)
#: A manifest is read only if it is a regular file of at most this size, nesting at most
#: this deep (it nests 3 deep; its size grows about 250 bytes a chunk), and a store is
#: created only with at most ``MAX_STORE_CHUNKS`` chunks, so its manifest stays below.
MAX_MANIFEST_BYTES = 512 * 2**20
MAX_MANIFEST_DEPTH = 8
MAX_STORE_CHUNKS = 1_000_000
