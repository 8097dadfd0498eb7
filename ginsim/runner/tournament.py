"""A round robin of games with duplicate deals, played in chunks into a result store.

Every pair of players plays the same decks (the game kernels' games ``0 .. decks-1`` of
the seed), each deck twice with the seats swapped. A chunk is a range of decks of one
pair, played in both seatings: by the game kernels when both players are ginsim
strategies, by the referee (:func:`ginsim.table.referee.play_match`, the same games hand
for hand) when one is an ``exec:`` program, whose faults forfeit its game. Chunks run
through :func:`~ginsim.runner.pool.map_chunks` (threads, processes or Dask) and go to
the store as stamped, checksummed Parquet files (:mod:`ginsim.runner.chunkfile`); the
manifest records each one's SHA-256 after its file is in place, so a run killed at any
point resumes to the same games. The store's definition (games, seed, rules, system,
timeout, chunk size) holds no players: a later run may add players, and plays only the
pairs it lacks.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from .._version import __version__
from ..game.inputs.checks import check_choice, check_int, check_path
from ..game.inputs.specs import brief
from ..game.rng_nb import check_seed
from ..game.rules import Rules
from ..simulator.limits import MAX_GAMES, check_decision_ms
from ..simulator.play.game_records import SYSTEMS, pair_games
from ..strategies.presets import Strategy, parse_strategy
from ..table.referee import EXEC_PREFIX, display_name, is_program, play_match, program
from .lock import StoreError, StoreLock
from .pool import BACKENDS, chunk_size, map_chunks, resolve_workers
from .store_files import (
    CHUNKS,
    LOCK,
    MANIFEST,
    chunk_entries_problem,
    chunk_path,
    make_chunks_dir,
    read_stored_manifest,
    record_chunk,
    remove_temps,
    save_manifest,
    stored_tables,
)

KIND = "ginsim.tournament"
#: Decks a chunk by default: a quarter of a pair's decks, within these bounds (a rule of
#: the games alone, so the same command always cuts the same chunks).
MIN_CHUNK_DECKS, MAX_CHUNK_DECKS = 25, 2_500
TOURNAMENT_KEYS = ("games", "seed", "rules", "system", "timeout_ms", "chunk_decks")
#: One row per game, in the pair's terms: ``winner`` 0 when the pair's first player won;
#: ``seating`` 0 when that player sat in seat a; ``forfeit`` the player at fault or -1.
TOURNAMENT_GAME_DTYPE = np.dtype([
    ("deck", np.int64), ("seating", np.int8), ("column", np.int8), ("winner", np.int8),
    ("score_a", np.int32), ("score_b", np.int32), ("hands", np.int32), ("forfeit", np.int8),
])


@dataclass(frozen=True)
class TournamentPlan:
    """What a tournament plays: ``players`` (specs or ``exec:COMMAND``) and the settings
    every pair shares. ``games`` a pair is even: each of ``games // 2`` decks twice."""

    players: tuple[str, ...]
    games: int
    seed: int
    rules: Rules
    system: str = "standard"
    timeout_ms: int = 1000
    chunk_decks: int = MIN_CHUNK_DECKS

    @classmethod
    def make(cls, players: Sequence[str], games: int, seed: int = 0,
             rules: Rules | str | None = None, system: str = "standard",
             timeout_ms: int = 1000, chunk_decks: int | None = None) -> TournamentPlan:
        """A plan from user-level arguments, each checked (one-line ValueErrors);
        ``chunk_decks`` None: :func:`default_chunk_decks`."""
        if isinstance(players, str) or not isinstance(players, Sequence):
            raise ValueError(f"players must be a list of strategy specs or exec:COMMAND "
                             f"agents, got {brief(players)}")
        names = tuple(check_player(p) for p in players)
        if len(names) < 2:
            raise ValueError(f"a tournament needs at least 2 players, got {len(names)}")
        shown = [display_name(p) for p in names]
        twice = sorted({p for p in shown if shown.count(p) > 1})
        if twice:
            raise ValueError(f"player {twice[0]!r} is named twice; name each player once")
        games = check_int(games, "games", 2, MAX_GAMES)
        if games % 2:
            raise ValueError(f"games must be even: each deck is played twice with the seats "
                             f"swapped; give {games + 1} or {games - 1}")
        check_choice(system, "system", tuple(SYSTEMS))
        rules = Rules.coerce(rules).check_games()
        if system != "standard" and any(is_program(p) for p in names):
            raise ValueError(f"exec: agents play standard games only (the referee's); leave "
                             f"--system {system} out")
        if chunk_decks is None:
            chunk_decks = default_chunk_decks(games // 2)
        return cls(names, games, check_seed(seed), rules, system,
                   check_decision_ms(timeout_ms, "timeout_ms"),
                   check_int(chunk_decks, "chunk_decks", 1, MAX_GAMES))

    @property
    def decks(self) -> int:
        return self.games // 2

    def definition(self) -> dict[str, Any]:
        """What a store's games depend on, the players aside (JSON-ready)."""
        return {"games": self.games, "seed": self.seed, "rules": self.rules.to_dict(),
                "system": self.system, "timeout_ms": self.timeout_ms,
                "chunk_decks": self.chunk_decks}

    def pairs(self) -> list[tuple[str, str]]:
        """Every pair once, its players in text order, whatever order they were named in."""
        return [tuple(sorted(p)) for p in itertools.combinations(self.players, 2)]


def default_chunk_decks(decks: int) -> int:
    """A quarter of a pair's decks, within MIN/MAX_CHUNK_DECKS: cheap to store, enough
    to resume from."""
    return chunk_size(decks, 4, MIN_CHUNK_DECKS, MAX_CHUNK_DECKS)


def check_player(player: Any) -> str:
    """A player: a ginsim strategy spec (parsed now, so an unknown one is refused before
    play), ``exec:COMMAND`` or ``NAME=exec:COMMAND`` (a program shown as NAME)."""
    if not isinstance(player, str) or not player.strip():
        raise ValueError(f"a player is a strategy spec or exec:COMMAND, got {brief(player)}")
    player = player.strip()
    if is_program(player):
        if not program(player)[len(EXEC_PREFIX):].strip():
            raise ValueError("exec: needs a command after it, e.g. 'exec:python bot.py'")
        return player
    parse_strategy(player)
    return player


def pair_id(a: str, b: str) -> str:
    """A pair's file-name stem: a digest of its two players."""
    return "p" + hashlib.sha256(f"{a}\n{b}".encode()).hexdigest()[:12]


@dataclass(frozen=True)
class PairChunk:
    """Decks ``first .. stop-1`` of the pair ``a``, ``b``: chunk ``index`` of that pair."""

    a: str
    b: str
    index: int
    first: int
    stop: int

    @property
    def name(self) -> str:
        return f"{pair_id(self.a, self.b)}-c{self.index:06d}"


def pair_chunks(plan: TournamentPlan, a: str, b: str) -> list[PairChunk]:
    return [PairChunk(a, b, i, lo, min(lo + plan.chunk_decks, plan.decks))
            for i, lo in enumerate(range(0, plan.decks, plan.chunk_decks))]


def play_pair_chunk(plan: TournamentPlan, chunk: PairChunk
                    ) -> tuple[PairChunk, np.ndarray, list[str]]:
    """Play a chunk's decks in both seatings (in a worker): (chunk, its rows in deck,
    seating, column order, the faults' lines)."""
    parts, faults = [], []
    for seating, (x, y) in enumerate(((chunk.a, chunk.b), (chunk.b, chunk.a))):
        count = chunk.stop - chunk.first
        if is_program(x) or is_program(y):
            result = play_match(program(x), program(y), count, plan.rules, plan.seed,
                                plan.timeout_ms, first=chunk.first)
            rows = _match_rows(result.games, chunk.first)
            faults += [f"{display_name(x)} (a) vs {display_name(y)} (b): {line}"
                       for line in result.faults]
        else:
            found = pair_games(_parsed(x), _parsed(y), chunk.first, count, plan.seed,
                               plan.rules, plan.system)
            rows = np.zeros(len(found), dtype=TOURNAMENT_GAME_DTYPE)
            for name in ("deck", "column", "winner", "score_a", "score_b", "hands"):
                rows[name] = found[name]
            rows["forfeit"] = -1
        if seating:  # back to the pair's terms: its first player sat in seat b
            rows["winner"] = 1 - rows["winner"]
            rows["score_a"], rows["score_b"] = rows["score_b"].copy(), rows["score_a"].copy()
            rows["forfeit"] = np.where(rows["forfeit"] < 0, -1, 1 - rows["forfeit"])
        rows["seating"] = seating
        parts.append(rows)
    rows = np.concatenate(parts)
    return chunk, rows[np.lexsort((rows["column"], rows["seating"], rows["deck"]))], faults


@lru_cache(maxsize=64)
def _parsed(spec: str) -> Strategy:
    """A spec parsed once per process (its parameter vectors are cached on the object)."""
    return parse_strategy(spec)


def _match_rows(games: list[dict[str, Any]], first: int) -> np.ndarray:
    rows = np.zeros(len(games), dtype=TOURNAMENT_GAME_DTYPE)
    for i, game in enumerate(games):
        rows[i] = (first + i, 0, 0, "ab".index(game["winner"]), game["score_a"],
                   game["score_b"], game["hands"],
                   "ab".index(game["forfeit"]) if game["forfeit"] else -1)
    return rows


@dataclass
class TournamentRun:
    """The games of every pair among the plan's players (in pair order), what was
    played and what was read back from the store."""

    plan: TournamentPlan
    pairs: list[tuple[str, str]]
    games: list[np.ndarray]
    faults: list[list[str]]
    chunks_played: int = 0
    chunks_resumed: int = 0
    wall_s: float = 0.0
    workers: int = 1


def run_tournament_games(plan: TournamentPlan, out: str | os.PathLike, *,
                         n_jobs: int | None = None, backend: str = "local",
                         scheduler: str | None = None,
                         on_chunk: Callable[[PairChunk], None] | None = None
                         ) -> TournamentRun:
    """Play the plan's pairs into the store ``out`` (created, resumed, or grown by new
    players); a store of another tournament is refused, naming what differs."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {brief(backend)}")
    if scheduler is not None and backend != "dask":
        raise ValueError("a scheduler address needs backend 'dask' (--backend dask)")
    workers = resolve_workers(n_jobs)
    root = Path(check_path(out, "out", "a directory path"))
    open_manifest(root, plan)  # refuses another tournament, makes the directory
    pairs = plan.pairs()
    run = TournamentRun(plan, pairs, [], [], workers=workers)
    with StoreLock(root / LOCK):
        remove_temps(root)
        manifest = open_manifest(root, plan)  # as it is now that this process holds it
        for a, b in pairs:
            if [a, b] not in manifest["pairs"]:
                manifest["pairs"].append([a, b])
        manifest["players"] = list(dict.fromkeys(manifest["players"] + list(plan.players)))
        save_manifest(root, manifest)
        stored, todo = _stored_chunks(root, plan, manifest, pairs)
        run.chunks_resumed = len(stored)
        t0 = time.perf_counter()
        for chunk, rows, faults in map_chunks(play_pair_chunk, [(plan, c) for c in todo],
                                              n_jobs=workers, backend=backend,
                                              ordered=False, scheduler=scheduler):
            record_chunk(root, manifest, chunk.name, _chunk_table(rows, faults),
                         _stamp(plan, chunk))
            stored[chunk] = (rows, faults)
            run.chunks_played += 1
            if on_chunk is not None:
                on_chunk(chunk)
        save_manifest(root, manifest, durable=True)
        run.wall_s = time.perf_counter() - t0
    for a, b in pairs:
        chunks = pair_chunks(plan, a, b)
        run.games.append(np.concatenate([stored[c][0] for c in chunks]))
        run.faults.append([line for c in chunks for line in stored[c][1]])
    return run


def _stored_chunks(root: Path, plan: TournamentPlan, manifest: dict[str, Any],
                   pairs: list[tuple[str, str]]
                   ) -> tuple[dict[PairChunk, tuple[np.ndarray, list[str]]], list[PairChunk]]:
    """The chunks the store holds (read back, each verified) and those left to play."""
    chunks = {chunk.name: chunk for a, b in pairs for chunk in pair_chunks(plan, a, b)}
    stored, todo = {}, []
    for name, _, table in stored_tables(root, manifest, (
            (name, _stamp(plan, chunk), None) for name, chunk in chunks.items())):
        if table is None:
            todo.append(chunks[name])
        else:
            stored[chunks[name]] = _chunk_rows(chunk_path(root, name), table)
    return stored, todo


def _chunk_table(rows: np.ndarray, faults: list[str]) -> pa.Table:
    """A chunk's games as an Arrow table, its faults' lines in the schema's metadata."""
    table = pa.table({name: np.ascontiguousarray(rows[name]) for name in rows.dtype.names})
    return table.replace_schema_metadata({b"ginsim.faults": json.dumps(faults).encode()})


def _chunk_rows(path: Path, table: pa.Table) -> tuple[np.ndarray, list[str]]:
    try:
        rows = np.empty(table.num_rows, dtype=TOURNAMENT_GAME_DTYPE)
        for name in rows.dtype.names:
            rows[name] = table.column(name).to_numpy()
        faults = json.loads((table.schema.metadata or {}).get(b"ginsim.faults", b"[]"))
    except (KeyError, TypeError, ValueError, pa.ArrowException) as exc:
        raise StoreError(f"{path} is not a tournament chunk ({exc}); delete it and run again "
                         f"to play that chunk again") from None
    return rows, [str(line) for line in faults]


def _stamp(plan: TournamentPlan, chunk: PairChunk) -> dict[str, Any]:
    return {"kind": KIND, **plan.definition(), "a": chunk.a, "b": chunk.b,
            "chunk": chunk.index, "first": chunk.first, "stop": chunk.stop,
            "columns": str(TOURNAMENT_GAME_DTYPE.descr), "ginsim_version": __version__}


def open_manifest(root: Path, plan: TournamentPlan) -> dict[str, Any]:
    """The store's manifest, or a new one (the directory made); StoreError if ``root``
    holds anything else or another tournament (naming the settings that differ)."""
    if root.exists() and not root.is_dir():
        raise StoreError(f"{root} is a file; give a directory for --out")
    found = read_tournament_manifest(root)
    if found is None:
        if root.exists() and any(p.name not in (LOCK, CHUNKS) for p in root.iterdir()):
            raise StoreError(f"{root} is not empty and holds no tournament; choose a new or "
                             f"empty directory for --out")
        make_chunks_dir(root)
        return {"kind": KIND, "definition": plan.definition(), "players": [], "pairs": [],
                "chunks": {}}
    ours = plan.definition()
    differ = [k for k in TOURNAMENT_KEYS if found["definition"].get(k) != ours[k]]
    if differ:
        k = differ[0]
        there, here = found["definition"].get(k), ours[k]
        if k == "rules":
            sub = next(f for f in sorted(set(there) | set(here)) if there.get(f) != here.get(f))
            k, there, here = f"rules.{sub}", there.get(sub), here.get(sub)
        raise StoreError(f"{root} holds another tournament: its {k} is {there}, here "
                         f"{here}; use another --out, or repeat its settings to resume it or "
                         f"add players")
    return found


def read_tournament_manifest(root: Path) -> dict[str, Any] | None:
    """A tournament store's manifest (checked as data from a stranger), or None."""
    found = read_stored_manifest(root, "tournament manifest")
    if found is None:
        return None
    if not isinstance(found, dict) or found.get("kind") != KIND:
        raise StoreError(f"{root} holds a ginsim store of another kind, not a tournament; "
                         f"choose another --out")
    if not _well_formed(found):
        raise StoreError(f"{root / MANIFEST} is damaged: it is not a tournament manifest "
                         f"ginsim wrote; "
                         f"restore it or use another --out")
    return found


def _well_formed(found: dict[str, Any]) -> bool:
    """Whether a parsed manifest has the shape ginsim writes."""
    defn, chunks = found.get("definition"), found.get("chunks")
    if set(found) != {"kind", "definition", "players", "pairs", "chunks"} or not isinstance(
            defn, dict) or not isinstance(chunks, dict):
        return False
    if set(defn) != set(TOURNAMENT_KEYS) or not isinstance(defn["rules"], dict):
        return False
    return isinstance(found["players"], list) and isinstance(found["pairs"], list) and (
        not chunk_entries_problem(chunks))
