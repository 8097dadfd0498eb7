"""The game table: a two-player game to the target valued from every score, with the
uncertainty of the hand sample it is made from (Python layer of
:mod:`ginsim.game.scoring.game_equity_nb`; docs/game-table.md)."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from ..rules import NEXT_DEALER_MODES, Rules
from .deal_order_nb import next_dealer_code_nb
from .game_equity_nb import (
    O_BOXES,
    O_DEALER,
    O_POINTS,
    O_WIDTH,
    O_WINNER,
    T_WIDTH,
    entry_tables_nb,
    game_equity_nb,
)
from .game_scoring_nb import hand_boxes_nb

BOOTSTRAP = 100  # bootstrap replicates of the hand sample behind each standard error
Z95 = 1.959963984540054
MIN_WON = 50  # won hands each dealer needs before its sample is bootstrapped
TABLES = ("win", "value", "shut_a", "shut_b", "hands")  # in T_* order
HOLLYWOOD_GAMES = 3


@dataclass(frozen=True)
class HandOutcomes:
    """Counted hand results: ``outcomes`` (int64 rows: dealer, winner, points, boxes; seat
    a is 0), how many hands gave each (``counts``), and the dead or scoreless hands each
    dealer dealt (``dead``)."""

    outcomes: np.ndarray
    counts: np.ndarray
    dead: np.ndarray

    @property
    def hands(self) -> np.ndarray:
        """Hands dealt by each seat (a, b), dead ones included."""
        won = np.bincount(self.outcomes[:, O_DEALER], weights=self.counts, minlength=2)
        return won.astype(np.int64) + self.dead


def hand_outcomes(dealer: np.ndarray, points_a: np.ndarray, points_b: np.ndarray,
                  outcome: np.ndarray, multiplier: np.ndarray,
                  rules: Rules | str | None = None) -> HandOutcomes:
    """Count hand records (one entry per hand, seat a = 0) into :class:`HandOutcomes` as
    the game schedulers score a hand: the seat that scored more wins the hand's points
    (both seats' added), and its boxes are the game kernel's (Oklahoma boxes included)."""
    rules = Rules.coerce(rules)
    cols = [np.asarray(c, dtype=np.int64) for c in (dealer, points_a, points_b, outcome,
                                                     multiplier)]
    if len({len(c) for c in cols}) != 1 or cols[0].ndim != 1:
        raise ValueError("hand_outcomes needs five 1-d columns of the same length")
    dealer, pa, pb, out, mult = cols
    if len(dealer) and not np.isin(dealer, (0, 1)).all():
        raise ValueError("dealer must be 0 (seat a) or 1 (seat b) in every hand")
    won = pa != pb
    dead = np.bincount(dealer[~won], minlength=2).astype(np.int64)
    gr = rules.packed_game()
    pairs, inverse = np.unique(np.stack([out[won], mult[won]], axis=1), axis=0,
                               return_inverse=True)
    boxes = np.array([hand_boxes_nb(int(o), int(m), gr) for o, m in pairs],
                     dtype=np.int64)[inverse.ravel()] if len(pairs) else np.zeros(0, np.int64)
    rows = np.stack([dealer[won], (pb[won] > pa[won]).astype(np.int64),
                     pa[won] + pb[won], boxes], axis=1).reshape(-1, O_WIDTH)
    rows, counts = np.unique(rows, axis=0, return_counts=True)  # sorted by dealer first
    return HandOutcomes(rows.astype(np.int64), counts.astype(np.int64), dead)


def _resample(outcomes: HandOutcomes, rng: np.random.Generator
              ) -> tuple[np.ndarray, np.ndarray]:
    """One bootstrap sample of the hands, drawn within each dealer's hands: (counts,
    dead)."""
    counts = np.zeros_like(outcomes.counts)
    dead = np.zeros(2, dtype=np.int64)
    dealers = outcomes.outcomes[:, O_DEALER]
    for d in range(2):
        mine = dealers == d
        n = int(outcomes.counts[mine].sum() + outcomes.dead[d])
        draw = rng.multinomial(n, np.append(outcomes.counts[mine], outcomes.dead[d]) / n)
        counts[mine] = draw[:-1]
        dead[d] = draw[-1]
    return counts, dead


def _chances(outcomes: np.ndarray, counts: np.ndarray, dead: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray]:
    """Each outcome's chance among its dealer's won hands, and each dealer's dead chance."""
    won = np.bincount(outcomes[:, O_DEALER], weights=counts, minlength=2)
    return (counts / won[outcomes[:, O_DEALER]]).astype(np.float64), (
        dead / (won + dead)).astype(np.float64)


def _packed(outcomes: np.ndarray, counts: np.ndarray, dead: np.ndarray, gr: np.ndarray,
            target: int) -> np.ndarray:
    """The ``(2, T, T, T_WIDTH)`` tables of the kernel for one set of counts."""
    packed = np.zeros((2, target, target, T_WIDTH))
    game_equity_nb(outcomes, *_chances(outcomes, counts, dead), gr, packed)
    return packed


def _solve(outcomes: np.ndarray, counts: np.ndarray, dead: np.ndarray, gr: np.ndarray,
           target: int) -> dict[str, np.ndarray]:
    """The five ``(2, T, T)`` tables for one set of counts."""
    packed = _packed(outcomes, counts, dead, gr, target)
    return {name: np.ascontiguousarray(packed[..., i]) for i, name in enumerate(TABLES)}


def _hollywood_starts(outcomes: np.ndarray, counts: np.ndarray, dead: np.ndarray,
                      gr: np.ndarray, target: int) -> np.ndarray:
    """``(3, 2, T_WIDTH)``: each Hollywood game's numbers when the session starts, by the
    first hand's dealer (game ``c`` counts a player's hands from their ``c``-th win)."""
    packed = _packed(outcomes, counts, dead, gr, target)
    chance, dead_chance = _chances(outcomes, counts, dead)
    out = np.empty((HOLLYWOOD_GAMES, 2, T_WIDTH))
    out[0] = packed[:, 0, 0]
    for entry in range(1, HOLLYWOOD_GAMES):
        one_a = np.zeros((entry, 2, target, T_WIDTH))
        one_b = np.zeros((entry, 2, target, T_WIDTH))
        none = np.zeros((entry, entry, 2, T_WIDTH))
        entry_tables_nb(outcomes, chance, dead_chance, gr, packed, entry,
                        (one_a, one_b, none, np.zeros(T_WIDTH)))
        out[entry] = none[0, 0]
    return out


@dataclass(frozen=True)
class GameTable:
    """A game to ``rules.target`` between seat a and seat b, from every score.

    Arrays are ``[d, a, b]``: ``d`` is the seat that deals the next hand (0: a, 1: b),
    ``a`` and ``b`` the seats' points (boxes count from that score on; a seat at 0 can
    still be shut out, one with points cannot). ``win``: the chance that seat a wins;
    ``value``: seat a's expected final margin (game bonus, boxes, shutout); ``shut_a``,
    ``shut_b``: the chance of a shutout win by a (b); ``hands``: hands still to play.
    ``win_se`` and ``value_se``: bootstrap standard errors over the hand sample.
    """

    rules: Rules
    a: str
    b: str
    n_hands: tuple[int, int]  # hands dealt by seat a, by seat b (dead included)
    boot: int
    win: np.ndarray
    value: np.ndarray
    shut_a: np.ndarray
    shut_b: np.ndarray
    hands: np.ndarray
    win_se: np.ndarray
    value_se: np.ndarray
    hands_se: np.ndarray
    cut_win_se: np.ndarray  # [a, b]: the errors of the two dealers' mean (a cut dealer)
    cut_value_se: np.ndarray
    cut_hands_se: np.ndarray

    @property
    def n(self) -> int:
        """Hands the table is made from."""
        return int(sum(self.n_hands))

    def _check(self, a: int, b: int) -> None:
        top = self.rules.target - 1
        for name, v in (("a", a), ("b", b)):
            if not 0 <= int(v) <= top:
                raise ValueError(f"score {name} must be 0..{top} (below the target "
                                 f"{self.rules.target}), got {v!r}")

    def at(self, name: str, a: int, b: int, dealer: int | None = None) -> float:
        """Table ``name`` at score ``a``-``b`` with ``dealer`` (0, 1) dealing next, or,
        with no dealer, the dealer cut at random (as at a game's start)."""
        if name not in (*TABLES, "win_se", "value_se", "hands_se"):
            raise ValueError(f"unknown table {name!r}: choose one of {', '.join(TABLES)}")
        self._check(a, b)
        t = getattr(self, name)
        if dealer is None:
            if name.endswith("_se"):  # the two dealers' cells share their replicates
                return float(getattr(self, f"cut_{name}")[a, b])
            return float(t[:, a, b].mean())
        if dealer not in (0, 1):
            raise ValueError(f"dealer must be 0 (seat a) or 1 (seat b), got {dealer!r}")
        return float(t[dealer, a, b])

    def win_after(self, a: int, b: int, dealer: int, winner: int, points: int) -> float:
        """Seat a's chance of winning the game once the hand ``dealer`` deals at ``a``-``b``
        ends with ``winner`` (0: a, 1: b, -1: dead) scoring ``points``: what a hand's
        result is worth in games (the next dealer follows the rules)."""
        self._check(a, b)
        if dealer not in (0, 1) or winner not in (-1, 0, 1):
            raise ValueError(f"dealer must be 0 or 1 and winner -1, 0 or 1, got {dealer!r} "
                             f"and {winner!r}")
        if winner < 0 or points <= 0:
            return float(self.win[dealer, a, b])  # dealt again by the same dealer
        na, nb = (a + points, b) if winner == 0 else (a, b + points)
        if max(na, nb) >= self.rules.target:
            return 1.0 if winner == 0 else 0.0
        nd = next_dealer_code_nb(dealer, winner, NEXT_DEALER_MODES.index(
            self.rules.next_dealer))
        return float(self.win[nd, na, nb])

    def wins_after(self, a: int, b: int, dealer: int | None, net: np.ndarray,
                   points: np.ndarray) -> np.ndarray:
        """:meth:`win_after` for many hands at once: seat a's chance of winning the game
        after each hand of ``net`` (a's points minus b's: its sign says who won, 0 a dead
        hand) and ``points`` (both seats' added), dealt by ``dealer`` at ``a``-``b``;
        with no dealer, the mean over either seat dealing (the dealer unknown)."""
        if dealer is None:
            return (self.wins_after(a, b, 0, net, points)
                    + self.wins_after(a, b, 1, net, points)) / 2
        self._check(a, b)
        net, points = np.asarray(net), np.asarray(points)
        out = np.full(net.shape, float(self.win[dealer, a, b]))  # dead: dealt again
        mode = NEXT_DEALER_MODES.index(self.rules.next_dealer)
        for winner, won in ((0, net > 0), (1, net < 0)):
            na = np.where(winner == 0, a + points, a)
            nb = np.where(winner == 1, b + points, b)
            over = np.maximum(na, nb) >= self.rules.target
            top = self.rules.target - 1
            nd = next_dealer_code_nb(dealer, winner, mode)
            after = self.win[nd, np.minimum(na, top), np.minimum(nb, top)]
            after = np.where(over, 1.0 if winner == 0 else 0.0, after)
            out = np.where(won & (points > 0), after, out)
        return out

    def interval(self, name: str, a: int, b: int, dealer: int | None = None
                 ) -> tuple[float, float]:
        """The 95% interval of ``win`` or ``value`` (estimate ± 1.96 bootstrap standard
        errors; a chance is kept within 0..1)."""
        if name not in ("win", "value", "hands"):
            raise ValueError(f"intervals are kept for win, value and hands, not {name!r}")
        mid = self.at(name, a, b, dealer)
        half = Z95 * self.at(f"{name}_se", a, b, dealer)
        low, high = mid - half, mid + half
        if name == "win":
            low, high = max(low, 0.0), min(high, 1.0)
        return low, high


def _check_outcomes(outcomes: HandOutcomes, boot: int) -> None:
    """One-line ValueErrors for hand results no table can be made from."""
    if not 0 <= int(boot) <= 10_000:
        raise ValueError(f"boot must be 0..10000 bootstrap replicates, got {boot!r}")
    won = np.bincount(outcomes.outcomes[:, O_DEALER], weights=outcomes.counts, minlength=2)
    least = MIN_WON if boot else 1
    for d, seat in enumerate("ab"):
        if won[d] < least:
            raise ValueError(f"{int(won[d])} won hands dealt by seat {seat}: the table needs "
                             f"at least {least} by either dealer; play more hands")
    if (np.diff(outcomes.outcomes[:, O_DEALER]) < 0).any():
        raise ValueError("outcomes must be sorted by dealer (as hand_outcomes gives them)")
    if (outcomes.outcomes[:, O_POINTS] < 1).any() or not np.isin(
            outcomes.outcomes[:, O_WINNER], (0, 1)).all() or (
            outcomes.outcomes[:, O_BOXES] < 0).any():
        raise ValueError("each outcome needs a winner 0 or 1, at least 1 point and boxes >= 0")


def solve_game_table(outcomes: HandOutcomes, rules: Rules | str | None = None, *,
                     a: str = "a", b: str = "b", boot: int = BOOTSTRAP, seed: int = 0
                     ) -> GameTable:
    """The :class:`GameTable` of ``outcomes`` under ``rules``' game scoring, with standard
    errors from ``boot`` bootstrap replicates of the hands (resampled within each dealer,
    seeded by ``seed``; 0 replicates: no errors)."""
    rules = Rules.coerce(rules)
    _check_outcomes(outcomes, boot)
    gr = rules.packed_game()
    target = rules.target
    tables = _solve(outcomes.outcomes, outcomes.counts, outcomes.dead, gr, target)
    rng = np.random.default_rng(seed)
    keep = ("win", "value", "hands")
    sums = {k: np.zeros((2, target, target)) for k in keep}
    squares = {k: np.zeros((2, target, target)) for k in keep}
    cut_sums = {k: np.zeros((target, target)) for k in keep}
    cut_squares = {k: np.zeros((target, target)) for k in keep}
    samples = [_resample(outcomes, rng) for _ in range(int(boot))]

    def replicate(sample: tuple[np.ndarray, np.ndarray]) -> dict[str, np.ndarray]:
        return _solve(outcomes.outcomes, sample[0], sample[1], gr, target)

    # The kernel releases the GIL: replicates run on every core, added up in order.
    with ThreadPoolExecutor(max_workers=min(len(samples), os.cpu_count() or 1) or 1) as pool:
        for rep in pool.map(replicate, samples):
            for k in keep:
                sums[k] += rep[k]
                squares[k] += rep[k] ** 2
                cut = rep[k].mean(axis=0)
                cut_sums[k] += cut
                cut_squares[k] += cut ** 2

    def _se(total: np.ndarray, square: np.ndarray) -> np.ndarray:
        if boot < 2:
            return np.full_like(total, np.nan)
        return np.sqrt(np.maximum(square - total ** 2 / boot, 0.0) / (boot - 1))

    se = {k: _se(sums[k], squares[k]) for k in keep}
    cut_se = {k: _se(cut_sums[k], cut_squares[k]) for k in keep}
    return GameTable(rules, a, b, tuple(int(v) for v in outcomes.hands), int(boot),
                     tables["win"], tables["value"], tables["shut_a"], tables["shut_b"],
                     tables["hands"], se["win"], se["value"], se["hands"],
                     cut_se["win"], cut_se["value"], cut_se["hands"])


@dataclass(frozen=True)
class HollywoodTable:
    """A Hollywood session (docs/rules.md §8.3) between seat a and seat b valued at its
    start, the first dealer cut: per game (1-3) a's chance of winning it, a's expected
    margin in it, the shutout chances and the hands until it is decided (``start``,
    ``(3, T_WIDTH)``), their bootstrap errors (``se``), and the session's value, the
    three margins added (``session``, ``session_se``)."""

    rules: Rules
    a: str
    b: str
    n_hands: tuple[int, int]
    boot: int
    start: np.ndarray
    se: np.ndarray
    session: float
    session_se: float

    @property
    def n(self) -> int:
        return int(sum(self.n_hands))

    def game(self, column: int) -> dict[str, float]:
        """Game ``column`` (1-3): ``win``, ``value``, ``shut_a``, ``shut_b``, ``hands``, and
        the 95% intervals of ``win`` and ``value`` (``*_low``, ``*_high``)."""
        if column not in range(1, HOLLYWOOD_GAMES + 1):
            raise ValueError(f"a Hollywood session has games 1-3, got {column!r}")
        row, err = self.start[column - 1], self.se[column - 1]
        out = {name: float(row[i]) for i, name in enumerate(TABLES)}
        for i, name in ((0, "win"), (1, "value")):
            low, high = row[i] - Z95 * err[i], row[i] + Z95 * err[i]
            if name == "win":
                low, high = max(low, 0.0), min(high, 1.0)
            out[f"{name}_low"], out[f"{name}_high"] = float(low), float(high)
        return out


def solve_hollywood(outcomes: HandOutcomes, rules: Rules | str | None = None, *,
                    a: str = "a", b: str = "b", boot: int = BOOTSTRAP, seed: int = 0
                    ) -> HollywoodTable:
    """The :class:`HollywoodTable` of ``outcomes`` under ``rules``' game scoring, with
    bootstrap errors as :func:`solve_game_table`'s."""
    rules = Rules.coerce(rules)
    _check_outcomes(outcomes, boot)
    gr, target = rules.packed_game(), rules.target
    start = _hollywood_starts(outcomes.outcomes, outcomes.counts, outcomes.dead, gr,
                              target).mean(axis=1)
    rng = np.random.default_rng(seed)
    samples = [_resample(outcomes, rng) for _ in range(int(boot))]
    reps = np.array([_hollywood_starts(outcomes.outcomes, c, d, gr, target).mean(axis=1)
                     for c, d in samples]).reshape(-1, HOLLYWOOD_GAMES, T_WIDTH)
    few = len(reps) < 2
    se = np.full_like(start, np.nan) if few else reps.std(axis=0, ddof=1)
    session_se = float("nan") if few else float(reps[:, :, 1].sum(axis=1).std(ddof=1))
    return HollywoodTable(rules, a, b, tuple(int(v) for v in outcomes.hands), int(boot),
                          start, se, float(start[:, 1].sum()), session_se)
