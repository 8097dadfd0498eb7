"""A run is a list of jobs (strategy pair x rules x hand range), cut into chunks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..game.rules import Rules
from ..strategies.presets import parse_strategy
from .limits import check_hands, check_seed

#: Chunk sizes chosen when the caller gives none: enough chunks for every worker to
#: stay busy and the progress bar to move, few enough that per-chunk costs vanish.
MIN_CHUNK_HANDS = 4_096
MAX_CHUNK_HANDS = 262_144
CHUNKS_PER_WORKER = 8


@dataclass(frozen=True)
class Job:
    """Hands ``start .. stop-1`` of strategy ``a`` (seat a) against ``b``."""

    a: str
    b: str
    rules: Rules
    seed: int
    start: int
    stop: int
    duplicate: bool = False

    def __post_init__(self) -> None:
        parse_strategy(self.a)
        parse_strategy(self.b)
        check_seed(self.seed)
        check_hands(self.start, "start")
        check_hands(self.stop, "stop")
        if self.stop < self.start:
            raise ValueError(f"stop ({self.stop}) must not be below start ({self.start})")
        if self.duplicate and (self.start % 2 or self.stop % 2):
            raise ValueError(f"duplicate deals play every deal twice, so the number of hands "
                             f"(and the first hand) must be even; got hands "
                             f"{self.start}..{self.stop - 1}")

    @classmethod
    def make(cls, a: Any, b: Any, hands: int, seed: int = 0, rules: Rules | str | None = None,
             *, start: int = 0, duplicate: bool = False) -> Job:
        """A job from user-level arguments (strategy specs or objects, a rules preset)."""
        a = a if isinstance(a, str) else a.spec
        b = b if isinstance(b, str) else b.spec
        hands = check_hands(hands)
        start = check_hands(start, "start")
        return cls(a, b, Rules.coerce(rules), check_seed(seed), start, start + hands,
                   bool(duplicate))

    @property
    def hands(self) -> int:
        """Number of hands in the job."""
        return self.stop - self.start

    def to_dict(self) -> dict[str, Any]:
        """Plain dict for the manifest."""
        return {"a": self.a, "b": self.b, "rules": self.rules.to_dict(), "seed": self.seed,
                "start": self.start, "stop": self.stop, "duplicate": self.duplicate}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Job:
        """Inverse of :meth:`to_dict`."""
        return cls(d["a"], d["b"], Rules(**d["rules"]), int(d["seed"]), int(d["start"]),
                   int(d["stop"]), bool(d["duplicate"]))


@dataclass(frozen=True)
class Chunk:
    """Hands ``start .. stop-1`` of job number ``job``; chunk ``index`` of that job."""

    job: int
    index: int
    start: int
    stop: int

    @property
    def name(self) -> str:
        """File stem of the chunk in a store."""
        return f"j{self.job:03d}-c{self.index:06d}"

    @property
    def hands(self) -> int:
        return self.stop - self.start


def default_chunk_hands(total_hands: int, workers: int) -> int:
    """An even chunk size giving each worker about :data:`CHUNKS_PER_WORKER` chunks."""
    want = -(-max(total_hands, 1) // (CHUNKS_PER_WORKER * max(workers, 1)))
    want = min(max(want, MIN_CHUNK_HANDS), MAX_CHUNK_HANDS)
    return want + want % 2


def check_chunk_hands(chunk_hands: int) -> int:
    """A chunk size is a whole number of hands, at least 1."""
    if check_hands(chunk_hands, "chunk_hands") < 1:
        raise ValueError("chunk_hands must be at least 1")
    return int(chunk_hands)


def plan_chunks(jobs: list[Job], chunk_hands: int) -> list[Chunk]:
    """Every chunk of every job, in order."""
    chunks = []
    for j, job in enumerate(jobs):
        for k, lo in enumerate(range(job.start, job.stop, chunk_hands)):
            chunks.append(Chunk(j, k, lo, min(lo + chunk_hands, job.stop)))
    return chunks
