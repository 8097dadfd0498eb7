"""The position advisor's sampling and rollouts (numpy; DataFrames in ``analysis``).

Unseen cards are those not in the advised hand, the pile or the opponent's known
pickups. Each sampled world deals the opponent its known pickups plus unseen cards,
and orders the rest into the stock (and, if the pile was not listed in full, the buried
part of the pile). Cards that would meld with a card the opponent declined (same rank,
or same suit within two ranks) are drawn into its hand with weight ``pass_weight``: a
player who passed a 7 of hearts is less likely to hold 7s or 6-8 of hearts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..game.cards import cards_to_mask, format_cards, parse_cards
from ..game.melds_nb import WORK_SIZE, min_deadwood_nb
from ..game.rules import Rules, brief
from ..game.tables import card_tables
from ..strategies.presets import Strategy
from .advise_nb import rollouts_nb
from .engine import seat_params
from .hand_nb import SCRATCH_SIZE
from .limits import check_rollouts, check_seed
from .records import TRACE_WIDTH

PASS_WEIGHT = 0.5


@dataclass(frozen=True)
class Position:
    """A validated position: the advised player's 11 cards and what it knows."""

    hand11: list[int]
    forbidden: int | None  # the card just taken from the pile, if so
    pile: list[int]  # bottom first, as listed
    took: list[int]
    passed: list[int]
    stock_left: int
    buried: int  # pile cards not listed (unknown, below the listed ones)

    @property
    def unseen(self) -> list[int]:
        known = set(self.hand11) | set(self.pile) | set(self.took)
        return [c for c in range(52) if c not in known]


def make_position(hand: str, drawn: str, pile: str = "", opponent_took: str = "",
                  opponent_passed: str = "", stock_left: int = 20,
                  drawn_from: str = "stock") -> Position:
    """Check a described position; ValueError says what is inconsistent."""
    cards = parse_cards(hand)
    if len(cards) != 10:
        raise ValueError(f"hand must hold 10 cards before the draw, got {len(cards)}")
    new = parse_cards(drawn)
    if len(new) != 1:
        raise ValueError(f"drawn must be exactly one card, got {len(new)}")
    if drawn_from not in ("stock", "pile"):
        raise ValueError(f"drawn_from must be 'stock' or 'pile', got {brief(drawn_from)}")
    pile_cards = parse_cards(pile)
    took = parse_cards(opponent_took)
    passed = parse_cards(opponent_passed)
    places = {"hand": cards, "drawn": new, "pile": pile_cards, "opponent_took": took}
    seen: dict[int, str] = {}
    for name, group in places.items():
        for c in group:
            if c in seen:
                raise ValueError(f"card {format_cards([c])} is both in {seen[c]} and in {name}")
            seen[c] = name
    for c in passed:
        if seen.get(c) in ("hand", "drawn", "opponent_took"):
            raise ValueError(f"card {format_cards([c])} was passed by the opponent, so it "
                             f"cannot be in {seen[c]} (passed cards stay in the pile)")
    if len(took) > 10:
        raise ValueError(f"the opponent holds 10 cards, opponent_took lists {len(took)}")
    if isinstance(stock_left, bool) or not isinstance(stock_left, int) or stock_left < 0:
        raise ValueError(f"stock_left must be a non-negative int, got {brief(stock_left)}")
    buried = 52 - 11 - 10 - len(pile_cards) - stock_left
    if buried < 0:
        raise ValueError(f"more cards than exist: 21 in hands + {len(pile_cards)} in the pile "
                         f"+ {stock_left} in the stock = {52 - buried} > 52 (stock_left is "
                         f"at most {31 - len(pile_cards)} here)")
    return Position(cards + new, new[0] if drawn_from == "pile" else None, pile_cards, took,
                    passed, stock_left, buried)


def sample_worlds(position: Position, rollouts: int, rng: np.random.Generator,
                  pass_weight: float = PASS_WEIGHT) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sample ``rollouts`` worlds: (opponent hand masks, stocks [w, stock_left] top first,
    buried pile cards [w, buried])."""
    unseen = np.array(position.unseen, dtype=np.int64)
    need = 10 - len(position.took)
    weights = np.ones(len(unseen))
    passed = position.passed
    for i, c in enumerate(unseen):
        if any(c % 13 == p % 13 or (c // 13 == p // 13 and abs(c % 13 - p % 13) <= 2)
               for p in passed):
            weights[i] = pass_weight
    # Weighted sampling without replacement (Gumbel top-k), then a uniform order for the
    # rest: one vectorised draw per world.
    keys = np.log(weights)[None, :] + rng.gumbel(size=(rollouts, len(unseen)))
    order = np.argsort(-keys, axis=1)
    opp = unseen[order[:, :need]]
    rest = unseen[order[:, need:]]
    rest = np.take_along_axis(rest, np.argsort(rng.random(rest.shape), axis=1), axis=1)
    opp_masks = (np.int64(1) << opp).sum(axis=1) | cards_to_mask(position.took)
    stocks = rest[:, :position.stock_left]
    buried = rest[:, position.stock_left:]
    return opp_masks, np.ascontiguousarray(stocks), np.ascontiguousarray(buried)


def legal_options(position: Position, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """Every legal (discard, knock) and the deadwood kept: every discard but the card
    just taken from the pile, with a knock too where the kept deadwood allows it."""
    tab = card_tables(rules)
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    hand = cards_to_mask(position.hand11)
    options, kept = [], []
    for c in position.hand11:
        if c == position.forbidden:
            continue
        dw = int(min_deadwood_nb(hand & ~(1 << c), tab, work))
        options.append((c, 0))
        kept.append(dw)
        if dw <= rules.knock_limit:
            options.append((c, 1))
            kept.append(dw)
    return np.array(options, dtype=np.int64), np.array(kept, dtype=np.int64)


def run_rollouts(position: Position, strategy: str | Strategy, opponent: str | Strategy,
                 rules: Rules, rollouts: int, seed: int
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(options, kept deadwood, net points [world, option], flags [world, option])."""
    seed = check_seed(seed)
    rollouts = check_rollouts(rollouts)
    rules = Rules.coerce(rules)
    if position.stock_left < rules.stock_floor:
        raise ValueError(f"stock_left {position.stock_left} is below the stock floor "
                         f"{rules.stock_floor} of these rules (the hand would already be "
                         f"dead); give at least {rules.stock_floor}")
    rng = np.random.default_rng(seed)
    opp, stocks, buried = sample_worlds(position, rollouts, rng)
    options, kept = legal_options(position, rules)
    net = np.zeros((rollouts, len(options)), dtype=np.int64)
    flags = np.zeros((rollouts, len(options)), dtype=np.int8)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    state_rng = np.zeros(3, dtype=np.uint64)
    trace = np.zeros((0, TRACE_WIDTH), dtype=np.int64)
    listed = np.array(position.pile, dtype=np.int64)
    piles = np.ascontiguousarray(np.concatenate(
        [buried, np.broadcast_to(listed, (rollouts, len(listed)))], axis=1))
    rollouts_nb(np.uint64(seed), cards_to_mask(position.hand11), piles,
                cards_to_mask(position.took), cards_to_mask(position.passed),
                rules.knock_limit, opp, stocks, options, kept,
                seat_params(strategy, opponent), rules.packed(), card_tables(rules), net,
                flags, trace, scratch, state_rng)
    return options, kept, net, flags
