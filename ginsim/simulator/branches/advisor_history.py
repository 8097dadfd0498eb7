"""A position read from a game history for the advisor: the hand checked against the
history (seat a's draw appended when the history stops before it), then worlds drawn
from the posterior over the opponent's hand
(:func:`~ginsim.simulator.belief.posterior.sample_beliefs`).
"""

from __future__ import annotations

import numpy as np

from ...game.cards import cards_to_mask, format_cards, mask_to_cards, parse_cards
from ...game.history import EV_PASS, EV_STOCK, EV_TAKE, History, history_text, parse_history
from ...game.inputs.checks import check_choice, check_number
from ...game.rules import Rules
from ...strategies.params import PARAMETERS
from ...strategies.presets import Strategy
from ..belief.posterior import knock_limit_of, sample_beliefs
from ..belief.replay_nb import TEMPERATURE, WAIT
from .advisor import DRAWN_FROM, HAND_OVER, PARTICLES, Situation, require_plain

RUNS = 4  # independent posterior runs pooled for the advisor's worlds
MIN_RUN_PARTICLES = 25  # fewer particles than this make one run, not several
RUN_STRIDE = 0x9E3779B97F4A7C15  # run k samples from seed + k * this (mod 2**64)


def history_situation(history: str | list[str], hand: str, drawn: str | None,
                      drawn_from: str, rules: Rules, model: str | Strategy, rollouts: int,
                      seed: int, temperature: float = TEMPERATURE,
                      wait: float = WAIT) -> Situation:
    """Check a hand against a history (appending seat a's draw when ``drawn`` is given
    and the history stops before it), then sample ``rollouts`` worlds from the
    posterior over the opponent's hand."""
    require_plain(model)
    hist = parse_history(history, rules)
    cards, new = _hand_and_drawn(hist, hand, drawn, drawn_from)
    hist, forbidden, new = _with_the_draw(hist, new, drawn_from, rules)
    mine = cards + new
    _check_cards(hist, mine, new, forbidden, rules)
    particles = min(rollouts, PARTICLES)
    rng = np.random.default_rng(seed)
    before, drew = before_my_draw(hist, new, rules)
    opp, runs, ess, unseen = pooled_worlds(before, cards_to_mask(mine) & ~drew, model, rules,
                                           (particles, rollouts), (seed, rng),
                                           (temperature, wait), drew)
    stocks, buried = pile_and_stocks(opp, unseen & ~drew, hist.stock_left, rng)
    if buried.shape[1] != 0:
        raise ValueError("the hand and the history do not account for every card")
    # both passed the upcard: the non-dealer's draw is from the stock, nothing to advise
    stock_only = (not hist.first_turn and not hist.drawn and len(hist.events) > 0
                  and hist.events[-1, 1] == EV_PASS)
    return Situation(mine, forbidden, list(hist.pile), public_fields(hist),
                     knock_limit_of(hist, rules), opp, stocks, ess, particles,
                     int(hist.dealer == 0) if hist.first_turn else -1, stock_only, runs,
                     int(hist.dealer))


def before_my_draw(hist: History, new: list[int], rules: Rules) -> tuple[History, int]:
    """The history before seat a's draw that ends it (if it does) and the card drawn
    (``new``) if it came from the stock (a mask; 0 for a pile take or no draw). The
    posterior is read there: seat a's own draw tells nothing of the opponent's play,
    only that the stock card drawn is not in its hand. So the worlds after the draw are
    the guesses made before it (the same seed: the same guesses) less those holding
    that card, and the belief moves only with what was learnt (issue 60: it jumped from
    21.4 to 8.8 between the draw and the discard when each decision drew its guesses
    afresh)."""
    events = hist.events
    if not hist.drawn or len(events) == 0 or events[-1, 0] != 0 or events[-1, 1] not in (
            EV_STOCK, EV_TAKE):
        return hist, 0
    before = parse_history(history_text(hist.dealer, hist.upcard, events[:-1]), rules)
    return before, (1 << new[0]) if events[-1, 1] == EV_STOCK and new else 0


def pooled_worlds(hist: History, mine: int, model: str | Strategy, rules: Rules,
                  sizes: tuple[int, int], seeds: tuple[int, np.random.Generator],
                  belief: tuple[float, float], drew: int = 0
                  ) -> tuple[np.ndarray, np.ndarray, float, int]:
    """The opponent's hand in each of ``sizes[1]`` worlds, from :data:`RUNS` independent
    posterior runs sharing ``sizes[0]`` particles (each world resampled from its own
    run's weighted guesses); the run of each world, the runs' summed ESS and the unseen
    mask. One run can settle in one mode of a many-moded posterior and another run in
    another (a late hand's values moved by 30 points between seeds while the interval
    said 3): pooled runs average that out, and the spread of the runs' means shows it
    in the interval (``advise``). Guesses holding a card of ``drew`` (drawn by seat a
    since) are given weight 0; a run left with none is sampled afresh with the draw
    known."""
    particles, rollouts = sizes
    seed, rng = seeds
    runs = max(1, min(RUNS, particles // MIN_RUN_PARTICLES))
    hands, run_of, ess, unseen = [], [], 0.0, 0
    for k in range(runs):
        n = rollouts // runs + (k < rollouts % runs)
        per = particles // runs + (k < particles % runs)
        run_seed = (seed + k * RUN_STRIDE) % 2**64
        beliefs = sample_beliefs(hist, mine, model, rules, per, run_seed, belief[0],
                                 wait=belief[1])
        weights = np.where(beliefs.hands & drew, 0.0, beliefs.weights)
        if drew and weights.sum() <= 0:
            beliefs = sample_beliefs(hist, mine | drew, model, rules, per, run_seed,
                                     belief[0], wait=belief[1])
            weights = beliefs.weights
        weights = weights / weights.sum()
        pick = (rng.random() + np.arange(n)) / n
        index = np.minimum(np.searchsorted(np.cumsum(weights), pick), per - 1)
        hands.append(beliefs.hands[index])
        run_of.append(np.full(n, k))
        ess += float(1.0 / np.sum(weights ** 2))
        unseen = beliefs.unseen
    return np.concatenate(hands), np.concatenate(run_of), ess, unseen


def _hand_and_drawn(hist: History, hand: str, drawn: str | None, drawn_from: str
                    ) -> tuple[list[int], list[int]]:
    """Seat a's 10 cards and the card drawn (none or one), checked against the point the
    history stops at."""
    if hist.to_move != 0:
        raise ValueError("the history must end with me to move (the advisor advises 'me'); "
                         "it ends with op to move")
    if hist.first_turn and drawn:
        raise ValueError("the history stops at the upcard offer: omit --drawn to be advised "
                         "on the offer, or add me:+CARD to the history if you took it")
    cards = parse_cards(hand)
    if len(cards) != 10:
        raise ValueError(f"hand must hold 10 cards before the draw, got {len(cards)}")
    new = parse_cards(drawn) if drawn else []
    if len(new) > 1:
        raise ValueError(f"drawn must be exactly one card, got {len(new)}")
    check_choice(drawn_from, "drawn_from", DRAWN_FROM)
    return cards, new


def _with_the_draw(hist: History, new: list[int], drawn_from: str, rules: Rules
                   ) -> tuple[History, int | None, list[int]]:
    """The history with seat a's draw in it, the card it may not discard (a pile take)
    and the card drawn."""
    forbidden = hist.last_drawn if hist.drawn and hist.last_drawn >= 0 else None
    if hist.drawn and forbidden is not None:
        if new and new[0] != forbidden:
            raise ValueError(f"the history ends with me taking {format_cards([forbidden])} "
                             f"from the pile, but drawn is {format_cards(new)}")
        return hist, forbidden, [forbidden]
    _check_draw_given(hist, new, drawn_from)
    if not hist.drawn and new:
        step = f"me:+{format_cards(new)}" if drawn_from == "pile" else "me:stock"
        hist = parse_history(hist.text() + " " + step, rules)
        forbidden = new[0] if drawn_from == "pile" else None
    return hist, forbidden, new


def _check_draw_given(hist: History, new: list[int], drawn_from: str) -> None:
    """Without a pile take at the history's end, ``drawn`` and ``drawn_from`` must say
    what the history does not."""
    if drawn_from == "pile" and (hist.drawn or not new):
        raise ValueError("drawn_from is pile, but " + (
            "the history has me holding 11 cards without a pile take" if hist.drawn else
            "no card was drawn (the draw itself is advised)") + ": leave drawn_from out")
    if hist.drawn and not new:
        raise ValueError("the history ends with me drawing from the stock: give the card "
                         "drawn (--drawn)")


def _check_cards(hist: History, mine: list[int], new: list[int], forbidden: int | None,
                 rules: Rules) -> None:
    """Seat a's cards must be distinct, out of the pile and the opponent's known takes,
    hold its own takes, and the stock must leave a draw to advise."""
    if len(set(mine)) != len(mine):
        raise ValueError(f"card {format_cards(new)} is both in hand and in drawn")
    for c in mine:
        if c == forbidden:
            continue
        if (hist.pile_mask >> c) & 1:
            raise ValueError(f"card {format_cards([c])} is both in hand and in the pile")
        if (hist.taken[1] >> c) & 1:
            raise ValueError(f"card {format_cards([c])} is in hand, but the opponent took it "
                             f"from the pile and still holds it")
    missing = mask_to_cards(hist.taken[0] & ~cards_to_mask(mine))
    if missing:
        raise ValueError(f"the history has me holding {format_cards(missing)} taken from the "
                         f"pile, but the hand lacks it")
    if hist.stock_left < rules.stock_floor:
        raise ValueError(f"the stock ({hist.stock_left}) is below the floor")
    if len(mine) == 10 and hist.stock_left <= rules.stock_floor and not rules.last_discard_rule:
        raise ValueError(HAND_OVER.format(floor=rules.stock_floor))


def public_fields(hist: History) -> np.ndarray:
    """The public history fields of :class:`~ginsim.simulator.branches.advisor.Situation`: cards
    taken, discarded and passed by each seat, then each seat's pile takes."""
    takes = [int(((hist.events[:, 0] == s) & (hist.events[:, 1] == EV_TAKE)).sum())
             for s in range(2)]
    return np.array([hist.taken[0], hist.taken[1], hist.discarded[0], hist.discarded[1],
                     hist.passed[0], hist.passed[1], takes[0], takes[1]], dtype=np.int64)


def pile_and_stocks(opp: np.ndarray, unseen: int, stock_left: int, rng: np.random.Generator
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Per world: the cards left for the stock and the buried pile, in random order."""
    cards = np.array([c for c in range(52) if (unseen >> c) & 1], dtype=np.int64)
    held = ((opp[:, None] >> cards[None, :]) & 1).astype(bool)
    keys = rng.random(held.shape) + held * 2.0
    order = np.argsort(keys, axis=1)[:, :len(cards) - int(held[0].sum())]
    rest = cards[order]
    return np.ascontiguousarray(rest[:, :stock_left]), np.ascontiguousarray(rest[:, stock_left:])


def belief_options(temperature: float | None, wait: float | None) -> tuple[float, float]:
    """The posterior's temperature and wait, defaults filled in, within the bounds of
    the mc player's parameters of the same names."""
    values = []
    for name, value, default in (("temperature", temperature, TEMPERATURE),
                                 ("wait", wait, WAIT)):
        p = PARAMETERS[name]
        values.append(check_number(default if value is None else value, name, p.low, p.high))
    return values[0], values[1]


def needs_history(**options: object) -> None:
    """The posterior's options without a history would be ignored: refused."""
    for name, value in options.items():
        if value is not None:
            raise ValueError(f"{name} (--{name}) shapes the posterior over the opponent's "
                             f"hand, which only a history gives: add history= (--history) "
                             f"or leave {name} out")


def only_one_view(shorthand: dict[str, object]) -> None:
    """A history says the pile, the stock and the opponent's takes and passes; the
    shorthand flags besides it would be ignored or contradict it: refused."""
    for name, value in shorthand.items():
        if value is not None and value != "":
            flag = "--" + name.replace("_", "-")
            raise ValueError(f"{name} ({flag}) describes a position without a history; with "
                             f"history= (--history) the history gives it: leave {name} out")
