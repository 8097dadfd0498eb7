"""A run is a list of jobs (strategy pair x rules x hand range), cut into chunks.

The chunk plan is arithmetic, not a list: :class:`ChunkPlan` computes chunk ``k`` of
job ``j`` on demand, so planning takes the same memory for ten hands or 10**12.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..game.inputs.checks import check_int, is_int
from ..game.inputs.specs import brief
from ..game.rng_nb import check_seed
from ..game.rules import Rules
from ..number_text import show
from ..simulator.limits import (
    MAX_CHUNKS,
    MAX_HAND_INDEX,
    MAX_JOB_HANDS,
    check_hand_range,
)
from ..strategies.presets import Strategy, parse_strategy
from .pool import chunk_size

#: Chunk sizes chosen when the caller gives none: enough chunks for every worker to
#: stay busy and the progress bar to move, few enough that per-chunk costs vanish.
MIN_CHUNK_HANDS = 4_096
MAX_CHUNK_HANDS = 262_144
CHUNKS_PER_WORKER = 8


@dataclass(frozen=True)
class Job:
    """Hands ``start .. stop-1`` of strategy ``a`` (seat a) against ``b``: both parsed and
    the rules a Rules object, so no chunk or slice parses a spec again (the manifest keeps
    their spec text, for provenance)."""

    a: Strategy
    b: Strategy
    rules: Rules
    seed: int
    start: int
    stop: int
    duplicate: bool = False

    def __post_init__(self) -> None:
        for seat, strategy in (("a", self.a), ("b", self.b)):
            if not isinstance(strategy, Strategy):
                raise ValueError(f"a job's strategy {seat} must be a Strategy (parse_strategy"
                                 f" or Job.make), got {brief(strategy)}")
        if not isinstance(self.rules, Rules):
            raise ValueError(f"a job's rules must be a Rules object, got {brief(self.rules)}")
        check_seed(self.seed)
        check_int(self.start, "start", 0, MAX_HAND_INDEX)
        check_int(self.stop, "stop", 0, MAX_HAND_INDEX)
        if self.stop < self.start:
            raise ValueError(f"stop ({self.stop}) must not be below start ({self.start})")
        if self.stop - self.start > MAX_JOB_HANDS:
            raise ValueError(f"a job plays at most {show(MAX_JOB_HANDS)} hands, got "
                             f"{show(self.stop - self.start)}")
        if not isinstance(self.duplicate, bool):
            raise ValueError(f"duplicate must be True or False, got {brief(self.duplicate)}")
        if self.duplicate and (self.start % 2 or self.stop % 2):
            raise ValueError(f"duplicate deals play every deal twice, so the number of hands "
                             f"(and the first hand) must be even; got hands "
                             f"{self.start}..{self.stop - 1}")

    @classmethod
    def make(cls, a: Any, b: Any, hands: int, seed: int = 0, rules: Rules | str | None = None,
             *, start: int = 0, duplicate: bool = False) -> Job:
        """A job from user-level arguments (strategy specs or objects, a rules preset),
        each parsed here once."""
        a, b = _strategy(a, "a"), _strategy(b, "b")
        hands, start = check_hand_range(hands, start)
        if not isinstance(duplicate, (bool, int)) or isinstance(duplicate, float):
            raise ValueError(f"duplicate must be True or False, got {brief(duplicate)}")
        return cls(a, b, Rules.coerce(rules), check_seed(seed), start, start + hands,
                   bool(duplicate))

    @property
    def hands(self) -> int:
        """Number of hands in the job."""
        return self.stop - self.start

    def to_dict(self) -> dict[str, Any]:
        """Plain dict for the manifest (the strategies as their spec text)."""
        return {"a": self.a.spec, "b": self.b.spec, "rules": self.rules.to_dict(),
                "seed": self.seed, "start": self.start, "stop": self.stop,
                "duplicate": self.duplicate}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Job:
        """Inverse of :meth:`to_dict` (exact types: a stored job is never coerced; its
        specs are parsed)."""
        if set(d) != {"a", "b", "rules", "seed", "start", "stop", "duplicate"}:
            raise ValueError(f"a job has the keys a, b, rules, seed, start, stop, duplicate; "
                             f"got {', '.join(sorted(map(str, d)))}")
        if not isinstance(d["rules"], dict):
            raise ValueError("a job's rules must be a mapping of Rules fields")
        return cls(_strategy(d["a"], "a"), _strategy(d["b"], "b"), Rules(**d["rules"]),
                   d["seed"], d["start"], d["stop"], d["duplicate"])


def _strategy(strategy: Any, seat: str) -> Strategy:
    """A strategy given as spec text (parsed) or a Strategy object (kept as it is)."""
    if isinstance(strategy, (Strategy, str)):
        return parse_strategy(strategy)
    raise ValueError(f"strategy {seat} must be a spec string such as 'simple' or a Strategy "
                     f"from ginsim.parse_strategy, got {brief(strategy)}")


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
    """An even chunk size giving each worker about :data:`CHUNKS_PER_WORKER` chunks,
    and never more than :data:`~ginsim.simulator.limits.MAX_CHUNKS` chunks per job."""
    want = chunk_size(total_hands, CHUNKS_PER_WORKER * max(workers, 1), MIN_CHUNK_HANDS,
                      MAX_CHUNK_HANDS)
    return want + want % 2


def check_chunk_hands(chunk_hands: int) -> int:
    """A chunk size is a whole number of hands, 1 .. 10**12."""
    if is_int(chunk_hands) and chunk_hands < 1:
        raise ValueError(f"chunk_hands must be at least 1, got {chunk_hands}")
    return check_int(chunk_hands, "chunk_hands", 1, MAX_JOB_HANDS)


CHUNK_NAME = re.compile(r"j(\d{3,})-c(\d{6,})")


def job_chunk_hands(job: Job, chunk_hands: int) -> int:
    """Hands per chunk of ``job``: ``chunk_hands``, rounded up to even for duplicate deals
    so that every chunk holds whole deals (the paired ``deals`` table needs both hands)."""
    return chunk_hands + chunk_hands % 2 if job.duplicate else chunk_hands


class ChunkPlan:
    """Every chunk of every job, in order, computed on demand (O(1) memory)."""

    def __init__(self, jobs: list[Job], chunk_hands: int) -> None:
        self.jobs = list(jobs)
        self.chunk_hands = check_chunk_hands(chunk_hands)
        self.sizes = [job_chunk_hands(job, self.chunk_hands) for job in self.jobs]
        self.counts = [-(-job.hands // size) for job, size in zip(self.jobs, self.sizes,
                                                                   strict=True)]
        for j, count in enumerate(self.counts):
            if count > MAX_CHUNKS:
                raise ValueError(f"job {j} would be cut into {count:,} chunks of "
                                 f"{self.sizes[j]:,} hands, at most {MAX_CHUNKS:,} are "
                                 f"allowed; choose chunk_hands of at least "
                                 f"{-(-self.jobs[j].hands // MAX_CHUNKS):,}")

    def __len__(self) -> int:
        return sum(self.counts)

    def __iter__(self) -> Iterator[Chunk]:
        for j, count in enumerate(self.counts):
            for k in range(count):
                yield self.chunk(j, k)

    def chunk(self, job: int, index: int) -> Chunk:
        """Chunk ``index`` of job ``job``; IndexError if there is no such chunk."""
        if not (0 <= job < len(self.jobs) and 0 <= index < self.counts[job]):
            raise IndexError(f"no chunk {index} in job {job}")
        j = self.jobs[job]
        lo = j.start + index * self.sizes[job]
        return Chunk(job, index, lo, min(lo + self.sizes[job], j.stop))

    def by_name(self, name: str) -> Chunk | None:
        """The chunk whose file stem is ``name`` (``j000-c000003``), or None."""
        match = CHUNK_NAME.fullmatch(name)
        if match is None:
            return None
        try:
            chunk = self.chunk(int(match[1]), int(match[2]))
        except IndexError:
            return None
        return chunk if chunk.name == name else None


def plan_chunks(jobs: list[Job], chunk_hands: int) -> ChunkPlan:
    """Every chunk of every job, in order (a lazy :class:`ChunkPlan`)."""
    return ChunkPlan(jobs, chunk_hands)
