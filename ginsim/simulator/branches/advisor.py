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

from ...game.card_tables import card_tables
from ...game.cards import cards_to_mask, format_cards, parse_cards
from ...game.inputs.checks import check_choice, check_int
from ...game.melds_nb import WORK_SIZE
from ...game.rules import STOCK_AT_DEAL, Rules
from ...strategies.presets import Strategy, parse_strategy
from ..belief.replay_nb import WAIT
from ..limits import check_rollouts, check_seed
from ..machine.board_nb import discard_options_nb
from ..machine.buffers import new_board
from ..machine.records import TRACE_WIDTH
from ..play.engine import seat_params
from ..search.rollouts_nb import OPT_DISCARD, OPT_PASS, OPT_STOCK, OPT_TAKE
from .advisor_nb import (
    AdvisedHand,
    Outcomes,
    kept_hands_nb,
    option_rollouts_nb,
    rollouts_nb,
)

HAND_OVER = ("the stock is down to the floor ({floor}) and the last discard was not a "
              "knock: the hand is over (dead), so there is no draw to advise")
DRAWN_FROM = ("stock", "pile")
PASS_WEIGHT = 0.5
PARTICLES = 500  # the posterior's guesses at most; the worlds resample them
PLAYS_ON = WAIT  # the shorthand opponent's chance of playing on where it could knock
REDRAWS = 20  # rejection rounds for the shorthand's kept hands (then the last ones stand)


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
    check_choice(drawn_from, "drawn_from", DRAWN_FROM)
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
    stock_left = check_int(stock_left, "stock_left", 0, 52)  # a deck's worth; see below
    buried = 52 - 11 - 10 - len(pile_cards) - stock_left
    if buried < 0:
        raise ValueError(f"more cards than exist: 21 in hands + {len(pile_cards)} in the pile "
                         f"+ {stock_left} in the stock = {52 - buried} > 52 (stock_left is "
                         f"at most {31 - len(pile_cards)} here)")
    return Position(cards + new, new[0] if drawn_from == "pile" else None, pile_cards, took,
                    passed, stock_left, buried)


def _no_upcard_limit(rules: Rules) -> None:
    """Without a history the upcard is unknown, and under Oklahoma it sets the hand's
    knock limit: refused rather than advised with the wrong limit."""
    if rules.oklahoma:
        raise ValueError("under Oklahoma rules the upcard sets the hand's knock limit: give "
                         "the hand's history (history=, --history), which starts with the "
                         "upcard, instead of the shorthand position")


def require_plain(*strategies: str | Strategy) -> None:
    """Rollouts and the belief's model are plain strategies; an mc player is refused."""
    for s in strategies:
        if parse_strategy(s).is_mc:
            raise ValueError("the advisor plays on and models the opponent with plain "
                             "strategies, not mc (mc itself is rollouts: use it with simulate "
                             "or play_games)")


def opponent_draws(position: Position) -> int:
    """The opponent's draws since the deal, as the shorthand reckons them: half of the
    stock drawn."""
    return max(0, STOCK_AT_DEAL - position.stock_left) // 2


def sample_worlds(position: Position, rollouts: int, rng: np.random.Generator,
                  pass_weight: float = PASS_WEIGHT, opponent_draws: int = 0,
                  rules: Rules | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sample ``rollouts`` worlds: (opponent hand masks, stocks [w, stock_left] top first,
    buried pile cards [w, buried]). With ``opponent_draws`` the opponent's hand is the
    one it kept over that many draws (:func:`kept_hands_nb`, by ``rules``' deadwood),
    its discards among the buried cards (where the pile is listed in full, back among
    the unseen ones: which listed card was its discard is not known); with 0, its
    cards as dealt (uniform): the
    hand of a player who has not drawn, whose deadwood averages about 57 where a
    player some turns in holds half that, which made the shorthand's values favour
    holding high cards (issue 60)."""
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
    if opponent_draws:
        return _kept_worlds(position, unseen[order], need, opponent_draws, rng,
                            Rules.coerce(rules))
    opp = unseen[order[:, :need]]
    rest = unseen[order[:, need:]]
    rest = np.take_along_axis(rest, np.argsort(rng.random(rest.shape), axis=1), axis=1)
    opp_masks = (np.int64(1) << opp).sum(axis=1) | cards_to_mask(position.took)
    stocks = rest[:, :position.stock_left]
    buried = rest[:, position.stock_left:]
    return opp_masks, np.ascontiguousarray(stocks), np.ascontiguousarray(buried)


def _kept_worlds(position: Position, cards: np.ndarray, need: int, draws: int,
                 rng: np.random.Generator, rules: Rules
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Worlds whose opponent kept its best cards over ``draws`` draws from ``cards``
    (each world's unseen cards in the order dealt), given that it has not knocked: a
    world where it could have (its deadwood within the knock limit after a discard) is
    kept with the chance :data:`PLAYS_ON` that it played on instead, never after gin
    (rejection sampling, worlds drawn again in the order given)."""
    rollouts = cards.shape[0]
    hands = np.zeros(rollouts, dtype=np.int64)
    discards = np.zeros((rollouts, draws), dtype=np.int64)
    lowest = np.zeros(rollouts, dtype=np.int64)
    tab, work = card_tables(rules), np.zeros(WORK_SIZE, dtype=np.int64)
    took = cards_to_mask(position.took)
    kept_hands_nb(np.ascontiguousarray(cards), need, draws, took, tab, work,
                  (hands, discards, lowest))
    could = lowest <= rules.knock_limit
    keep = ~could | ((lowest > 0) & (rng.random(rollouts) < PLAYS_ON))
    for _ in range(REDRAWS):
        if keep.all():
            break
        again = np.flatnonzero(~keep)
        fresh = np.take_along_axis(cards[again], np.argsort(rng.random(
            (len(again), cards.shape[1])), axis=1), axis=1)
        cards[again] = fresh
        part = [np.zeros(len(again), dtype=np.int64), np.zeros((len(again), draws),
                                                                dtype=np.int64),
                np.zeros(len(again), dtype=np.int64)]
        kept_hands_nb(np.ascontiguousarray(fresh), need, draws, took, tab, work, tuple(part))
        hands[again], discards[again], lowest[again] = part
        keep[again] = (part[2] > rules.knock_limit) | (
            (part[2] > 0) & (rng.random(len(again)) < PLAYS_ON))
    into_pile = min(draws, position.buried)
    rest = np.concatenate([discards[:, into_pile:], cards[:, need + draws:]], axis=1)
    rest = np.take_along_axis(rest, np.argsort(rng.random(rest.shape), axis=1), axis=1)
    stocks = rest[:, :position.stock_left]
    buried = np.concatenate([discards[:, :into_pile], rest[:, position.stock_left:]], axis=1)
    buried = np.take_along_axis(buried, np.argsort(rng.random(buried.shape), axis=1), axis=1)
    return hands, np.ascontiguousarray(stocks), np.ascontiguousarray(buried)


def legal_options(position: Position, rules: Rules, knock_limit: int | None = None
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Every legal (discard, knock) and the deadwood kept, from the discard phase's
    options of the hand machine (``board_nb.discard_options_nb``, as the Table lists
    them): every discard but the card just taken from the pile, with a knock too where
    the kept deadwood is within the hand's ``knock_limit`` (default the rules';
    Oklahoma: the upcard's)."""
    limit = rules.knock_limit if knock_limit is None else knock_limit
    kept_after = np.zeros(52, dtype=np.int64)
    forbidden = 0 if position.forbidden is None else 1 << position.forbidden
    discard_options_nb(cards_to_mask(position.hand11), forbidden, card_tables(rules),
                       np.zeros(WORK_SIZE, dtype=np.int64), kept_after)
    options, kept = [], []
    for c in position.hand11:
        dw = int(kept_after[c])
        if dw < 0:
            continue
        options.append((c, 0))
        kept.append(dw)
        if dw <= limit:
            options.append((c, 1))
            kept.append(dw)
    return np.array(options, dtype=np.int64), np.array(kept, dtype=np.int64)


def run_rollouts(position: Position, strategy: str | Strategy, opponent: str | Strategy,
                 rules: Rules, rollouts: int, seed: int, opponent_draws: int = 0
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(options, kept deadwood, net points [world, option], flags [world, option], hand
    points [world, option]); the opponent's hand sampled as kept over ``opponent_draws``
    draws (:func:`sample_worlds`)."""
    require_plain(strategy, opponent)
    seed = check_seed(seed)
    rollouts = check_rollouts(rollouts)
    rules = Rules.coerce(rules)
    _no_upcard_limit(rules)
    if position.stock_left < rules.stock_floor:
        raise ValueError(f"stock_left {position.stock_left} is below the stock floor "
                         f"{rules.stock_floor} of these rules (the hand would already be "
                         f"dead); give at least {rules.stock_floor}")
    rng = np.random.default_rng(seed)
    opp, stocks, buried = sample_worlds(position, rollouts, rng, opponent_draws=opponent_draws,
                                        rules=rules)
    options, kept = legal_options(position, rules)
    out = new_outcomes(rollouts, len(options))
    listed = np.array(position.pile, dtype=np.int64)
    piles = np.ascontiguousarray(np.concatenate(
        [buried, np.broadcast_to(listed, (rollouts, len(listed)))], axis=1))
    advised = AdvisedHand(cards_to_mask(position.hand11), cards_to_mask(position.took),
                          cards_to_mask(position.passed), rules.knock_limit)
    rollouts_nb(np.uint64(seed), advised, (piles, opp, stocks), (options, kept),
                seat_params(strategy, opponent, rules), rules.packed(), card_tables(rules), out)
    return options, kept, out.net, out.flags, out.points


def new_outcomes(worlds: int, options: int) -> Outcomes:
    """Empty :class:`Outcomes` for ``worlds`` x ``options`` rollouts (no trace)."""
    return Outcomes(np.zeros((worlds, options), dtype=np.int64),
                    np.zeros((worlds, options), dtype=np.int8),
                    np.zeros((worlds, options), dtype=np.int64),
                    np.zeros((0, TRACE_WIDTH), dtype=np.int64), new_board(),
                    np.zeros(3, dtype=np.uint64))


@dataclass(frozen=True)
class Situation:
    """A position to advise with the worlds to play it in: seat a's cards (10 before
    its draw, 11 after), the full pile and the public history fields."""

    hand: list[int]
    forbidden: int | None
    pile: list[int]
    public: np.ndarray  # taken a, taken b, discarded a, discarded b, passed a, passed b,
    # pile takes a, pile takes b
    knock_limit: int
    opp_hands: np.ndarray  # int64 masks, one per world
    stocks: np.ndarray  # [world, stock_left], top first
    ess: float
    particles: int
    offer: int = -1  # at the upcard offer: 1 if seat a deals, 0 if not; else -1
    stock_only: bool = False  # both passed the upcard: seat a must draw from the stock
    runs: np.ndarray | None = None  # the posterior run each world came from, if several
    dealer: int = -1  # the seat that dealt this hand (0: seat a), -1 if not known


def shorthand_situation(position: Position, rollouts: int, seed: int, rules: Rules,
                        opponent_draws: int = 0) -> Situation:
    """Worlds for the shorthand flags (:func:`sample_worlds`, declined cards weighed
    down, the opponent's hand kept over ``opponent_draws`` draws); a position of 10
    cards is advised on its draw."""
    _no_upcard_limit(rules)
    rng = np.random.default_rng(seed)
    opp, stocks, buried = sample_worlds(position, rollouts, rng, opponent_draws=opponent_draws,
                                        rules=rules)
    listed = np.array(position.pile, dtype=np.int64)
    if buried.shape[1] != 0:
        raise ValueError("the draw can be advised only with the whole pile listed (or a "
                         "--history): give --pile in full, or --drawn")
    took = cards_to_mask(position.took)
    public = np.array([0, took, 0, 0, 0, cards_to_mask(position.passed), 0,
                       len(position.took)], dtype=np.int64)
    return Situation(position.hand11, position.forbidden, [int(c) for c in listed], public,
                     rules.knock_limit, opp, stocks, float(rollouts), rollouts)


def draw_position(hand: str, pile: str, opponent_took: str, opponent_passed: str,
                  stock_left: int) -> Position:
    """A position before seat a's draw (10 cards); the pile must be listed in full."""
    cards = parse_cards(hand)
    if len(cards) != 10:
        raise ValueError(f"hand must hold 10 cards before the draw, got {len(cards)}")
    pile_cards = parse_cards(pile)
    took = parse_cards(opponent_took)
    passed = parse_cards(opponent_passed)
    seen: dict[int, str] = {}
    for name, group in {"hand": cards, "pile": pile_cards, "opponent_took": took}.items():
        for c in group:
            if c in seen:
                raise ValueError(f"card {format_cards([c])} is both in {seen[c]} and in {name}")
            seen[c] = name
    for c in passed:
        if seen.get(c) in ("hand", "opponent_took"):
            raise ValueError(f"card {format_cards([c])} was passed by the opponent, so it "
                             f"cannot be in {seen[c]} (passed cards stay in the pile)")
    if len(took) > 10:
        raise ValueError(f"the opponent holds 10 cards, opponent_took lists {len(took)}")
    stock_left = check_int(stock_left, "stock_left", 0, 52)  # a deck's worth; see below
    if not pile_cards or len(pile_cards) + stock_left != 32:
        raise ValueError(f"to advise the draw without --history, list the whole pile: 20 "
                         f"cards in hands + {len(pile_cards)} in the pile + {stock_left} in "
                         f"the stock must make 52 (or give --drawn)")
    return Position(cards, None, pile_cards, took, passed, stock_left, 0)


def situation_options(situation: Situation, rules: Rules) -> np.ndarray:
    """Options ``(kind, card, knock, kept deadwood)``: every legal discard (and knock)
    with 11 cards; take the pile card or draw from the stock with 10; take or pass the
    upcard at the offer."""
    if situation.offer >= 0:
        up = situation.pile[-1]
        return np.array([(OPT_TAKE, up, 0, 0), (OPT_PASS, up, situation.offer, 0)],
                        dtype=np.int64)
    if len(situation.hand) == 10:
        at_floor = situation.stocks.shape[1] <= rules.stock_floor
        if at_floor and not _may_take_last_discard(situation, rules):
            raise ValueError(HAND_OVER.format(floor=rules.stock_floor))
        rows = ([(OPT_TAKE, situation.pile[-1], 0, 0)]
                if situation.pile and not situation.stock_only else [])
        if not at_floor:  # at the floor only the last discard may be taken (§5.3)
            rows.append((OPT_STOCK, -1, 0, 0))
        return np.array(rows, dtype=np.int64)
    position = Position(situation.hand, situation.forbidden, [], [], [], 0, 0)
    options, kept = legal_options(position, rules, situation.knock_limit)
    return np.column_stack([np.full(len(options), OPT_DISCARD), options, kept]).astype(np.int64)


def _may_take_last_discard(situation: Situation, rules: Rules) -> bool:
    """At the stock floor: whether the last-discard rule lets seat a take the pile's top,
    which it may only to knock or go gin with it (§5.3)."""
    if not rules.last_discard_rule or not situation.pile:
        return False
    top = situation.pile[-1]
    position = Position([*situation.hand, top], top, [], [], [], 0, 0)
    options, _ = legal_options(position, rules, situation.knock_limit)
    return bool(options[:, 1].any())


def situation_rollouts(situation: Situation, strategy: str | Strategy,
                       opponent: str | Strategy, rules: Rules, seed: int,
                       options: np.ndarray | None = None
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(options, net points [world, option], flags [world, option], hand points [world,
    option]); every option of :func:`situation_options` unless ``options`` are given."""
    require_plain(strategy, opponent)
    if options is None:
        options = situation_options(situation, rules)
    options = np.ascontiguousarray(options, dtype=np.int64)
    public = situation.public
    advised = AdvisedHand(cards_to_mask(situation.hand), int(public[1]), int(public[5]),
                          situation.knock_limit)
    worlds = (np.array(situation.pile, dtype=np.int64), public, situation.opp_hands,
              situation.stocks)
    out = new_outcomes(len(situation.opp_hands), len(options))
    option_rollouts_nb(np.uint64(seed), advised, worlds, options,
                       seat_params(strategy, opponent, rules), rules.packed(),
                       card_tables(rules), out)
    return options, out.net, out.flags, out.points
