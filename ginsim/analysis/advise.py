"""The position advisor: expected points of every option, by rollouts.

One row per option: ``option`` (words), ``action`` (discard, knock, take, stock, pass),
``discard``, ``knock``, ``deadwood`` (kept; -1 for draw options),
``expected_points`` (the advised player's points minus the opponent's, this hand)
with ``low``/``high`` (95% interval), ``p_undercut`` (own knock undercut),
``p_opponent_gin``, ``opponent_deadwood`` (the opponent's mean deadwood now in the
sampled worlds, the same on every row) with ``opponent_deadwood_se`` (its standard
error: of ``ess`` independent guesses, or by the spread of the posterior's runs where
that is more), ``ess``
(effective sample size of the posterior's guesses, at most 500 a batch however many
the rollouts; the number of worlds for uniform sampling), ``rollouts`` (worlds each
option was played in), ``best`` (the highest value), ``recommended`` (the best where
its interval clears the next one's: otherwise no row is, the choice is close),
``close`` (the option's interval overlaps the best's; on the best's row: another's
overlaps it), ``loss`` (the best option's value less this one's, 0 on the best's row)
with ``loss_low``/``loss_high`` (its 95% interval: the two options played in the same
worlds, so the difference is known better than either value), ``loss_held_out``
(the loss with the best picked on half the worlds and measured on the other: unbiased
by that pick, may be below 0; what a review's error rate averages), and with ``score``
``game_win`` (0 to 1) with ``game_win_low``/``game_win_high``.
``table.attrs["samples"]`` is the number of guesses or worlds. A warning goes to
``table.attrs["warning"]`` (and Python's warnings) when the ESS is below 10% of the
samples.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from ..game.card_tables import card_tables
from ..game.cards import format_cards
from ..game.inputs.checks import check_choice, check_number
from ..game.inputs.specs import spec_values
from ..game.melds_nb import WORK_SIZE, min_deadwood_nb
from ..game.rng_nb import check_seed
from ..game.rules import Rules
from ..simulator.branches.advisor import (
    Situation,
    draw_position,
    make_position,
    opponent_draws,
    run_rollouts,
    sample_worlds,
    shorthand_situation,
    situation_rollouts,
)
from ..simulator.branches.advisor_history import (
    belief_options,
    history_situation,
    needs_history,
    only_one_view,
)
from ..simulator.branches.advisor_worlds import (
    Worlds,
    held_out_losses,
    loss_errors,
    narrowed_error,
    spend_worlds,
    standard_errors,
)
from ..simulator.limits import check_rollouts
from ..simulator.machine.history_replay import below_stock_floor
from ..simulator.search.rollouts_nb import OPT_DISCARD, OPT_PASS, OPT_STOCK, OPT_TAKE
from ..strategies.presets import MC_ROLLOUT, Strategy, parse_strategy
from .game_stats import scored_table
from .intervals import Z95

STOCK_LEFT = 20  # the shorthand's cards left in the stock when not given
MAX_ROLLOUTS = 50_000  # the most rollouts ``precision`` spends by default
PRECISION_RANGE = (0.05, 100.0)  # the interval half-widths ``precision`` may ask for
#: How the advised player plays on in the rollouts: the strongest plain strategy, the
#: closest to a player who follows the advice (with a weaker one, memory2, the draw's
#: value fell short of the discard's after it).
OWN_PLAY = "expert"


def advise(hand: str, drawn: str | None = None, pile: str | None = None,
           opponent_took: str | None = None, opponent_passed: str | None = None,
           stock_left: int | None = None,
           rules: Rules | str | None = None, opponent: str | Strategy = "simple",
           strategy: str | Strategy = OWN_PLAY, rollouts: int = 10_000, seed: int = 0,
           drawn_from: str = "stock", history: str | list[str] | None = None,
           model: str | Strategy | None = None,
           temperature: float | None = None, wait: float | None = None, *,
           score: tuple[int, int] | None = None, precision: float | None = None,
           max_rollouts: int = MAX_ROLLOUTS, precision_of: str = "values",
           chosen: tuple[str, str | None] | None = None,
           dealt: bool = False) -> pd.DataFrame:
    """Rate every option of a position by playing it out ``rollouts`` times.

    With ``history`` (the public record, notation of :mod:`ginsim.game.history`) the
    opponent's hidden cards are sampled from the posterior under the opponent ``model``
    (default: ``opponent``), softened with ``temperature`` (default 0.25; ``wait``: the
    chance that the opponent plays on where the model would knock, default 0.2);
    otherwise from the shorthand (``pile``, ``opponent_took``, ``opponent_passed``,
    ``stock_left``, default 20): the opponent's cards as it kept them over its share of
    the draws so far (its least deadwood at each draw), or, with ``dealt``, as dealt
    (uniform: a hand of about 57 deadwood that no player holds turns in). The history's
    options (``model``, ``temperature``, ``wait``) without a history, or shorthand with
    one, are refused. Each option is played in the same worlds, the advised player going
    on with ``strategy`` (default :data:`OWN_PLAY`), the opponent with ``opponent``.
    With ``drawn`` the options are the discards (and knocks); without it, the draw: take
    the pile's top card or draw from the stock (then discard as ``strategy`` does), or at
    the upcard offer (a history that stops there) take or pass the upcard.

    ``precision`` (points): more rollouts, in batches of worlds of their own, until
    every option's 95% interval is at most that wide either side, or ``max_rollouts``
    are spent; ``precision_of="losses"``: every option's ``loss`` interval; with
    ``chosen`` (an ``action`` and its card, e.g. ``("discard", "KD")``), that option's
    loss against the best of the others. ``score`` (yours, the opponent's): ``game_win``,
    the chance of winning the game from it after each rollout's hand, by the game table
    of expert against expert (:func:`~ginsim.analysis.game_stats.advice_game_table`).

    One row per option, best first (the columns: this module's docstring).
    """
    rules = Rules.coerce(rules)
    seed, rollouts = _checked_request(rules, seed, rollouts, drawn, drawn_from, history)
    precision, max_rollouts = _checked_precision(precision, max_rollouts, rollouts)
    widest = narrowed_error(precision_of, chosen)
    game = None if score is None else scored_table(score, rules)
    shorthand = {"pile": pile, "opponent_took": opponent_took,
                 "opponent_passed": opponent_passed, "stock_left": stock_left}
    if history is not None:
        only_one_view(shorthand)
        belief = (opponent if model is None else model, *belief_options(temperature, wait))
        batch = _history_batch(history, hand, (drawn, drawn_from), belief,
                               (strategy, opponent), rules)
    else:
        needs_history(model=model, temperature=temperature, wait=wait)
        view = (pile or "", opponent_took or "", opponent_passed or "",
                STOCK_LEFT if stock_left is None else stock_left)
        batch = _shorthand_batch(hand, drawn, drawn_from, view, (strategy, opponent), rules,
                                 dealt)
    worlds = spend_worlds(batch, rollouts, seed, None if precision is None
                          else precision / Z95, max_rollouts, widest)
    return _table(worlds, game)


def _history_batch(history: str | list[str], hand: str, draw: tuple, belief: tuple,
                   players: tuple, rules: Rules):
    """The batch function of a position read from a history: each batch samples the
    posterior afresh (its own seed) and plays every option in its worlds."""
    def batch(n: int, batch_seed: int) -> Worlds:
        situation = history_situation(history, hand, *draw, rules, belief[0], n, batch_seed,
                                      belief[1], belief[2])
        return _situation_worlds(situation, *players, rules, batch_seed)
    return batch


def _shorthand_batch(hand: str, drawn: str | None, drawn_from: str, view: tuple,
                     players: tuple, rules: Rules, dealt: bool):
    """The batch function of a shorthand position (checked now, once)."""
    strategy, opponent = players
    if drawn is None:
        position = draw_position(hand, *view)
        draws = 0 if dealt else opponent_draws(position)

        def draw_batch(n: int, batch_seed: int) -> Worlds:
            situation = shorthand_situation(position, n, batch_seed, rules, draws)
            return _situation_worlds(situation, strategy, opponent, rules, batch_seed)
        return draw_batch
    position = make_position(hand, drawn, *view, drawn_from)
    draws = 0 if dealt else opponent_draws(position)

    def discard_batch(n: int, batch_seed: int) -> Worlds:
        options, kept, net, flags, points = run_rollouts(position, strategy, opponent, rules,
                                                         n, batch_seed, draws)
        opp, _, _ = sample_worlds(position, n, np.random.default_rng(batch_seed),
                                  opponent_draws=draws, rules=rules)
        options = np.column_stack([np.full(len(options), OPT_DISCARD), options, kept])
        return Worlds(options, net, flags, points, _deadwoods(opp, rules), float(n), n,
                       None, None)
    return discard_batch


def opponent_model(bot: str | Strategy) -> tuple[Strategy, str]:
    """The plain strategy the advisor plays ``bot`` as (its rollouts and its belief), and
    a note for the player when that is not the bot itself: an mc bot searches by rollouts
    of its own, which the advisor's cannot nest, so it is modelled by the plain strategy
    its search plays on with (its ``rollout``; the preset's is the learned card play's
    linear model)."""
    strategy = parse_strategy(bot)
    if not strategy.is_mc:
        return strategy, ""
    given = spec_values(strategy.spec)[1]
    text = (given.get("rollout") or MC_ROLLOUT).replace(";", ",")
    return parse_strategy(text), (f"the bot searches and learns over the game; the advisor "
                                  f"models it as {text}, the card play its search plays on "
                                  f"with")


def _checked_request(rules: Rules, seed: int, rollouts: int, drawn: str | None,
                     drawn_from: str, history: str | list[str] | None) -> tuple[int, int]:
    """The seed and rollouts checked, once the rules and ``drawn_from`` fit the advisor."""
    if rules.mahjong:
        raise ValueError("advise weighs knocking-gin turns; Mahjong gin is not one it plays: "
                         "give knocking rules such as modern")
    seed = check_seed(seed)
    rollouts = check_rollouts(rollouts)
    check_choice(drawn_from, "drawn_from", ("stock", "pile"))
    if drawn is None and drawn_from != "stock" and history is None:
        raise ValueError("drawn_from (--drawn-from) says where the drawn card came from: "
                         "give drawn (--drawn) with it, or leave it out")
    return seed, rollouts


def _situation_worlds(situation: Situation, strategy: str | Strategy,
                      opponent: str | Strategy, rules: Rules, seed: int) -> Worlds:
    """A sampled situation (a history's posterior, or a shorthand position before the
    draw) with every option played out in its worlds."""
    if below_stock_floor(situation.stocks.shape[1], rules):
        raise ValueError(f"stock_left {situation.stocks.shape[1]} is below the stock "
                         f"floor {rules.stock_floor} of these rules")
    options, net, flags, points = situation_rollouts(situation, strategy, opponent, rules,
                                                     seed)
    return Worlds(options, net, flags, points, _deadwoods(situation.opp_hands, rules),
                   situation.ess, situation.particles, situation.runs,
                   None if situation.dealer < 0 else situation.dealer)


def _checked_precision(precision: float | None, max_rollouts: int, rollouts: int
                       ) -> tuple[float | None, int]:
    """The precision (points, or None) and the most rollouts it may spend (at least the
    first batch's)."""
    if precision is not None:
        precision = check_number(precision, "precision", *PRECISION_RANGE)
    return precision, max(check_rollouts(max_rollouts), rollouts)


def _deadwoods(hands: np.ndarray, rules: Rules) -> np.ndarray:
    """Each world's opponent deadwood."""
    tab = card_tables(rules)
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    return np.array([min_deadwood_nb(int(h), tab, work) for h in hands], dtype=np.float64)


def _table(worlds: Worlds, game=None) -> pd.DataFrame:
    """The advisor's table of ``worlds`` (and, with ``game`` = (table, mine, theirs),
    each option's chance of winning the game)."""
    options, net, runs = worlds.options, worlds.net, worlds.runs
    mean = net.mean(axis=0)
    half = Z95 * standard_errors(net, runs)
    loss, loss_half = mean.max() - mean, Z95 * loss_errors(net, runs)
    kind = options[:, 0]
    action = np.where(kind == OPT_TAKE, "take", np.where(
        kind == OPT_STOCK, "stock", np.where(kind == OPT_PASS, "pass", np.where(
            options[:, 2] != 0, "knock", "discard"))))
    discard = [format_cards([int(c)]) if k == OPT_DISCARD else ""
               for k, c in zip(kind, options[:, 1], strict=True)]
    words = {"take": "take the pile card {}", "stock": "draw from the stock",
             "pass": "pass the upcard {}", "gin": "go gin, discard {}",
             "knock": "knock, discard {}", "discard": "discard {}"}
    # a knock that keeps no deadwood is gin: its row says so, as the recommendation does
    said = np.where((action == "knock") & (options[:, 3] == 0), "gin", action)
    option = [words[a].format(format_cards([int(c)]) if c >= 0 else "")
              for a, c in zip(said, options[:, 1], strict=True)]
    # the worlds repeat the posterior's guesses: its error is that of ess guesses at most
    deadwood_se = max(standard_errors(worlds.opp_deadwood[:, None], runs)[0],
                      worlds.opp_deadwood.std(ddof=1) / np.sqrt(max(min(worlds.ess, len(net)),
                                                                    2.0)))
    frame = pd.DataFrame({
        "option": option,
        "action": action,
        "discard": discard,
        "knock": action == "knock",
        "deadwood": np.where(kind == OPT_DISCARD, options[:, 3], -1),
        "expected_points": mean,
        "low": mean - half,
        "high": mean + half,
        "loss": loss,
        "loss_low": loss - loss_half,
        "loss_high": loss + loss_half,
        "loss_held_out": held_out_losses(net, runs),
        "p_undercut": (worlds.flags == 1).mean(axis=0),
        "p_opponent_gin": (worlds.flags == 2).mean(axis=0),
        "opponent_deadwood": float(worlds.opp_deadwood.mean()),
        "opponent_deadwood_se": float(deadwood_se),
        "ess": worlds.ess,
        "rollouts": len(net),
    })
    if game is not None:
        _game_columns(frame, worlds, game)
    frame = frame.sort_values(["expected_points", "knock"], ascending=[False, False],
                              kind="stable").reset_index(drop=True)
    _mark_the_best(frame)
    frame.attrs["samples"] = worlds.samples
    ess, samples = worlds.ess, worlds.samples
    if ess < 0.1 * samples:
        text = (f"effective sample size {ess:.0f} is below 10% of the {samples} samples: "
                f"the history is unlikely under the opponent model; try another --model or a "
                f"higher temperature")
        frame.attrs["warning"] = text
        warnings.warn(text, stacklevel=3)
    return frame


def _game_columns(frame: pd.DataFrame, worlds: Worlds, game) -> None:
    """``game_win`` and its interval: each rollout's hand valued by the game table
    ``game = (table, mine, theirs)`` at that score."""
    table, mine, theirs = game
    wins = table.wins_after(mine, theirs, worlds.dealer, worlds.net, worlds.points)
    win_half = Z95 * standard_errors(wins, worlds.runs)
    frame["game_win"] = wins.mean(axis=0)
    frame["game_win_low"] = np.clip(frame.game_win - win_half, 0.0, 1.0)
    frame["game_win_high"] = np.clip(frame.game_win + win_half, 0.0, 1.0)
    frame.attrs["score"] = (mine, theirs)
    frame.attrs["game_table"] = (f"expert against expert under {table.rules.spec()}, "
                                 f"{table.n:,} hands")


def _mark_the_best(frame: pd.DataFrame) -> None:
    """``best``, ``close`` and ``recommended`` of a table sorted best first: the best is
    recommended only where its 95% interval clears every other option's."""
    best = frame.index == 0
    overlaps = (frame.high >= frame.low.iloc[0]).to_numpy() & ~best
    frame["best"] = best
    frame["close"] = overlaps | (best & overlaps.any())
    frame["recommended"] = best & ~overlaps.any()


def advice_words(table: pd.DataFrame) -> str:
    """The recommendation in words, with its margin over the runner-up, saying whose
    points the expectation counts; "Close" where the best's interval does not clear the
    next one's; with a score, the chance of winning the game and the option best for
    it where that is another."""
    best = table.iloc[0]
    clear = bool(table.recommended.iloc[0]) if "recommended" in table else True
    head = "Recommended" if clear else "Close"
    text = (f"{head}: {best.option} (expected {best.expected_points:+.2f} points, your points "
            f"minus the opponent's this hand, 95% CI [{best.low:+.2f}, {best.high:+.2f}]"
            + (f"; wins the game {best.game_win:.1%}" if "game_win" in table else "") + ")")
    if len(table) > 1:
        second = table.iloc[1]
        text += f"; next best: {second.option} ({second.expected_points:+.2f})"
    if not clear:
        text += ("; their 95% intervals overlap, so either is as good as these rollouts can "
                 "tell (more rollouts, --precision, may separate them)")
    if "game_win" in table:
        top = table.loc[table.game_win.idxmax()]
        mine, theirs = table.attrs.get("score", ("?", "?"))
        if top.option != best.option:
            text += (f". At {mine}-{theirs} the game is best served by {top.option} "
                     f"(wins {top.game_win:.1%})")
        text += f". Game chances from the game table of {table.attrs.get('game_table', '')}"
    text += (f". The opponent's deadwood now averages {best.opponent_deadwood:.1f} in the "
             f"sampled worlds.")
    return text
