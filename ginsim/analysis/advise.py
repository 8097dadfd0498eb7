"""The position advisor: expected points of every option, by rollouts."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from ..game.card_tables import card_tables
from ..game.cards import format_cards
from ..game.inputs.checks import check_choice, check_number
from ..game.inputs.specs import spec_items
from ..game.melds_nb import WORK_SIZE, min_deadwood_nb
from ..game.rules import Rules
from ..simulator.belief.replay_nb import TEMPERATURE, WAIT
from ..simulator.branches.advisor import (
    Position,
    Situation,
    draw_position,
    make_position,
    run_rollouts,
    sample_worlds,
    shorthand_situation,
    situation_rollouts,
)
from ..simulator.branches.advisor_history import history_situation
from ..simulator.limits import check_rollouts, check_seed
from ..simulator.machine.history_replay import below_stock_floor
from ..simulator.search.rollouts_nb import OPT_DISCARD, OPT_PASS, OPT_STOCK, OPT_TAKE
from ..strategies.params import PARAMETERS
from ..strategies.presets import MC_ROLLOUT, Strategy, parse_strategy
from .intervals import Z95

STOCK_LEFT = 20  # the shorthand's cards left in the stock when not given
#: How the advised player plays on after the option in the rollouts, by default: expert,
#: the strongest plain strategy, the closest to a player who follows the advice (with
#: memory2 the draw's value fell short of the discard's after it, issue 41).
OWN_PLAY = "expert"


def advise(hand: str, drawn: str | None = None, pile: str | None = None,
           opponent_took: str | None = None, opponent_passed: str | None = None,
           stock_left: int | None = None,
           rules: Rules | str | None = None, opponent: str | Strategy = "simple",
           strategy: str | Strategy = OWN_PLAY, rollouts: int = 10_000, seed: int = 0,
           drawn_from: str = "stock", history: str | list[str] | None = None,
           model: str | Strategy | None = None,
           temperature: float | None = None, wait: float | None = None) -> pd.DataFrame:
    """Rate every option of a position by playing it out ``rollouts`` times.

    With ``history`` (the public record, notation of :mod:`ginsim.game.history`) the
    opponent's hidden cards are sampled from the posterior under the opponent ``model``
    (default: ``opponent``), softened with ``temperature`` (default 0.25; ``wait``: the
    chance that the opponent plays on where the model would knock, default 0.2);
    otherwise from the shorthand (``pile``, ``opponent_took``, ``opponent_passed``,
    ``stock_left``, default 20) nearly uniformly. The history's options (``model``,
    ``temperature``, ``wait``) without a history, or shorthand with one, are refused.
    Each option is played in the same worlds, the advised player continuing with
    ``strategy`` (default expert, the strongest plain strategy: the player who follows
    the advice plays on as well as that at least, and a weaker one, such as memory2, made
    the draw's value fall short of the discard's after it) and the opponent with
    ``opponent``. With ``drawn`` the options are the
    discards (and knocks); without it, the draw: take the pile's top card or draw from
    the stock (then discard as ``strategy`` does), or at the upcard offer (a history
    that stops there) take or pass the upcard.

    One row per option: ``option`` (words), ``action`` (discard, knock, take, stock, pass),
    ``discard``, ``knock``, ``deadwood`` (kept; -1 for draw options),
    ``expected_points`` (the advised player's points minus the opponent's, this hand)
    with ``low``/``high`` (95% interval), ``p_undercut`` (own knock undercut),
    ``p_opponent_gin``, ``opponent_deadwood`` (the opponent's mean deadwood now in the
    sampled worlds, the same on every row), ``ess`` (effective sample size of the
    posterior's guesses, at most 500 however many the rollouts; the number of worlds for
    uniform sampling) and ``recommended``; ``table.attrs["samples"]`` is that number of
    guesses or worlds. A warning goes to ``table.attrs["warning"]`` (and Python's
    warnings) when the ESS is below 10% of the samples.
    """
    rules = Rules.coerce(rules)
    seed, rollouts = _checked_request(rules, seed, rollouts, drawn, drawn_from, history)
    shorthand = {"pile": pile, "opponent_took": opponent_took,
                 "opponent_passed": opponent_passed, "stock_left": stock_left}
    if history is not None:
        _only_one_view(shorthand)
        situation = history_situation(history, hand, drawn, drawn_from, rules,
                                      opponent if model is None else model, rollouts, seed,
                                      *_belief_options(temperature, wait))
        return _situation_table(situation, strategy, opponent, rules, seed)
    _needs_history(model=model, temperature=temperature, wait=wait)
    view = (pile or "", opponent_took or "", opponent_passed or "",
            STOCK_LEFT if stock_left is None else stock_left)
    if drawn is None:
        situation = shorthand_situation(draw_position(hand, *view), rollouts, seed, rules)
        return _situation_table(situation, strategy, opponent, rules, seed)
    position = make_position(hand, drawn, *view, drawn_from)
    return _position_table(position, strategy, opponent, rules, rollouts, seed)


def opponent_model(bot: str | Strategy) -> tuple[Strategy, str]:
    """The plain strategy the advisor plays ``bot`` as (its rollouts and its belief), and
    a note for the player when that is not the bot itself: an mc bot searches by rollouts
    of its own, which the advisor's cannot nest, so it is modelled by the plain strategy
    its search plays on with (its ``rollout``; the preset's is the learned card play's
    linear model)."""
    strategy = parse_strategy(bot)
    if not strategy.is_mc:
        return strategy, ""
    given = {key: value for _, key, value in spec_items(strategy.spec.partition(":")[2])}
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


def _position_table(position: Position, strategy: str | Strategy, opponent: str | Strategy,
                    rules: Rules, rollouts: int, seed: int) -> pd.DataFrame:
    """The table of a position after the draw (shorthand): every discard and knock,
    played out in ``rollouts`` nearly uniform worlds."""
    options, kept, net, flags = run_rollouts(position, strategy, opponent, rules, rollouts,
                                             seed)
    opp, _, _ = sample_worlds(position, rollouts, np.random.default_rng(seed))
    options = np.column_stack([np.full(len(options), OPT_DISCARD), options, kept])
    return _table(options, net, flags, _mean_deadwood(opp, rules), float(rollouts), rollouts)


def _situation_table(situation: Situation, strategy: str | Strategy, opponent: str | Strategy,
                     rules: Rules, seed: int) -> pd.DataFrame:
    """The table of a sampled situation (a history's posterior, or a shorthand position
    before the draw): every option played out in the situation's worlds."""
    if below_stock_floor(situation.stocks.shape[1], rules):
        raise ValueError(f"stock_left {situation.stocks.shape[1]} is below the stock "
                         f"floor {rules.stock_floor} of these rules")
    options, net, flags = situation_rollouts(situation, strategy, opponent, rules, seed)
    return _table(options, net, flags, _mean_deadwood(situation.opp_hands, rules),
                  situation.ess, situation.particles, situation.runs)


def _belief_options(temperature: float | None, wait: float | None) -> tuple[float, float]:
    """The posterior's temperature and wait, defaults filled in, within the bounds of
    the mc player's parameters of the same names."""
    values = []
    for name, value, default in (("temperature", temperature, TEMPERATURE),
                                 ("wait", wait, WAIT)):
        p = PARAMETERS[name]
        values.append(check_number(default if value is None else value, name, p.low, p.high))
    return values[0], values[1]


def _needs_history(**options: object) -> None:
    """The posterior's options without a history would be ignored: refused."""
    for name, value in options.items():
        if value is not None:
            raise ValueError(f"{name} (--{name}) shapes the posterior over the opponent's "
                             f"hand, which only a history gives: add history= (--history) "
                             f"or leave {name} out")


def _only_one_view(shorthand: dict[str, object]) -> None:
    """A history says the pile, the stock and the opponent's takes and passes; the
    shorthand flags besides it would be ignored or contradict it: refused."""
    for name, value in shorthand.items():
        if value is not None and value != "":
            flag = "--" + name.replace("_", "-")
            raise ValueError(f"{name} ({flag}) describes a position without a history; with "
                             f"history= (--history) the history gives it: leave {name} out")


def _mean_deadwood(hands: np.ndarray, rules: Rules) -> float:
    tab = card_tables(rules)
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    return float(np.mean([min_deadwood_nb(int(h), tab, work) for h in hands]))


def standard_errors(net: np.ndarray, runs: np.ndarray | None = None) -> np.ndarray:
    """Each option's standard error of its mean over the worlds (rows of ``net``): as if
    the worlds were independent, or, where they come from several posterior runs
    (``runs``, the run of each world), the larger of that and the spread of the runs'
    means, which also holds how far one run's guesses of the opponent's hand may be
    from another's."""
    se = net.std(axis=0, ddof=1) / np.sqrt(net.shape[0])
    if runs is None or len(np.unique(runs)) < 2:
        return se
    means = np.stack([net[runs == k].mean(axis=0) for k in np.unique(runs)])
    return np.maximum(se, means.std(axis=0, ddof=1) / np.sqrt(len(means)))


def _table(options: np.ndarray, net: np.ndarray, flags: np.ndarray, opp_deadwood: float,
           ess: float, samples: int, runs: np.ndarray | None = None) -> pd.DataFrame:
    mean = net.mean(axis=0)
    half = Z95 * standard_errors(net, runs)
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
    frame = pd.DataFrame({
        "option": option,
        "action": action,
        "discard": discard,
        "knock": action == "knock",
        "deadwood": np.where(kind == OPT_DISCARD, options[:, 3], -1),
        "expected_points": mean,
        "low": mean - half,
        "high": mean + half,
        "p_undercut": (flags == 1).mean(axis=0),
        "p_opponent_gin": (flags == 2).mean(axis=0),
        "opponent_deadwood": opp_deadwood,
        "ess": ess,
    })
    frame = frame.sort_values(["expected_points", "knock"], ascending=[False, False],
                              kind="stable").reset_index(drop=True)
    frame["recommended"] = frame.index == 0
    frame.attrs["samples"] = samples
    if ess < 0.1 * samples:
        text = (f"effective sample size {ess:.0f} is below 10% of the {samples} samples: "
                f"the history is unlikely under the opponent model; try another --model or a "
                f"higher temperature")
        frame.attrs["warning"] = text
        warnings.warn(text, stacklevel=3)
    return frame


def advice_words(table: pd.DataFrame) -> str:
    """The recommendation in words, with its margin over the runner-up, saying whose
    points the expectation counts."""
    best = table.iloc[0]
    text = (f"Recommended: {best.option} (expected {best.expected_points:+.2f} points, your points "
            f"minus the opponent's this hand, 95% CI [{best.low:+.2f}, {best.high:+.2f}])")
    if len(table) > 1:
        second = table.iloc[1]
        text += f"; next best: {second.option} ({second.expected_points:+.2f})"
    text += (f". The opponent's deadwood now averages {best.opponent_deadwood:.1f} in the "
             f"sampled worlds.")
    return text
