"""The strategy parameter vector: the layout every policy kernel reads.

A strategy is a float64 vector indexed by the ``P_*`` constants. :data:`PARAMETERS`
documents each parameter (its name in spec strings, default, allowed values: every one
has bounds, ``low``..``high`` or its ``choices``, checked on every strategy); the presets
in :mod:`ginsim.strategies.presets` are overrides of these defaults.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..game.history import DEFAULT_TEMPERATURE, DEFAULT_WAIT
from ..game.inputs.checks import is_number
from ..game.inputs.specs import brief
from ..number_text import show

KIND_DEADWOOD = 0  # decisions by exact deadwood (the ``simple`` family and its memory levels)
KIND_RANDOM = 1  # uniformly random legal choices, knocking whenever legal
KIND_MC = 2  # Monte Carlo rollouts over posterior-sampled worlds (simulator/search/mc_nb.py)
KIND_EXPERT = 3  # memory2's information, scored by stage, safety and potential (expert_nb.py)
KIND_LEARNED = 4  # draw and discard by a model learned from mc (strategies/learned/)

DRAW_MELD = 0  # take the pile card only if it is melded in a best arrangement
DRAW_IMPROVE = 1  # take it if it lowers the best deadwood after the discard
DRAW_NEVER = 2  # always draw from the stock

N_BUCKETS = 4  # knock thresholds by stock left: >= edge0, >= edge1, >= edge2, below

P_KIND = 0
P_KNOCK = 1  # P_KNOCK + bucket: knock when deadwood <= this in that stock bucket
P_EDGES = P_KNOCK + N_BUCKETS  # P_EDGES + i: lower stock edge of bucket i (3 edges)
P_DRAW = P_EDGES + N_BUCKETS - 1
P_MEMORY = P_DRAW + 1  # 0 none, 1 dead cards and live outs, 2 also the opponent's cards
P_OUTS_WEIGHT = P_MEMORY + 1  # deadwood points one live out is worth (memory >= 1)
P_DANGER_WEIGHT = P_OUTS_WEIGHT + 1  # deadwood points per unit of feeding risk (memory 2)
P_UNDERCUT = P_DANGER_WEIGHT + 1  # wait for gin while P(undercut) is above this
P_CHART = P_UNDERCUT + 1  # P_CHART + bucket: bit d set = knock at deadwood d (0: unused)
P_GRID = P_CHART + N_BUCKETS  # P_GRID + grid cell: knock probability (all -1: no grid)

# A knock grid (a chart as data, :mod:`ginsim.strategies.charts.knock_charts`): one knock
# probability per stock-left bucket (4 cards wide, play order: 28-31 first, 0-3 last) x
# deadwood kept (1..GRID_DEADWOOD; more counts as GRID_DEADWOOD) x cards the opponent has
# taken from the pile so far (0, 1, 2+). Cell index = (bucket * GRID_DEADWOOD + deadwood - 1) *
# GRID_TAKEN + taken.
GRID_BUCKETS = 8
GRID_BUCKET_WIDTH = 4
GRID_DEADWOOD = 10
GRID_TAKEN = 3
GRID_CELLS = GRID_BUCKETS * GRID_DEADWOOD * GRID_TAKEN
P_LAY = P_GRID + GRID_CELLS  # Mahjong gin: lay melds once the opponent holds <= this many
LAY_AT_ONCE = 52  # P_LAY's default: lay every meld as soon as it is formed
# The expert card play (read only for KIND_EXPERT rows, by strategies/expert_nb.py). The
# weights ``outs`` and ``danger`` above are its values at the deal; these are the values
# with the stock empty (linear in the stock left between the two).
P_X_OUTS_LATE = P_LAY + 1  # deadwood points a live out is worth with the stock empty
P_X_DANGER_LATE = P_X_OUTS_LATE + 1  # points per unit of feeding risk with the stock empty
P_X_SAFE = P_X_DANGER_LATE + 1  # points credited to a discard the opponent cannot meld
P_X_POTENTIAL = P_X_SAFE + 1  # points per live card that would pair or neighbour a discard
P_X_TAKE_MELD = P_X_POTENTIAL + 1  # least deadwood gain to take a pile card that melds
P_X_TAKE_ANY = P_X_TAKE_MELD + 1  # least deadwood gain to take any other pile card
P_X_LOOKAHEAD = P_X_TAKE_ANY + 1  # weight of the expected deadwood cut of the next draw
P_X_OUTS_VALUE = P_X_LOOKAHEAD + 1  # points per 10 deadwood points a live out would meld
P_X_CONTESTED = P_X_OUTS_VALUE + 1  # share of an out's worth lost when it fits the opponent
# The learned card play (read only for KIND_LEARNED rows, by strategies/learned/): the
# weights of its discard model (one per feature of a discard option) and of its draw model
# (one per feature of taking the pile card), set by ``card_model=NAME_OR_FILE``; a
# quadratic discard model (P_L_QUADRATIC 1) adds a weight per product of two discard
# features (N_DISCARD_PAIRS of them in its file, i <= j in numpy's ``triu_indices``
# order), held here as the symmetric matrix of the same form, row by row.
N_DISCARD_FEATURES = 18
N_DRAW_FEATURES = 12
N_DISCARD_PAIRS = N_DISCARD_FEATURES * (N_DISCARD_FEATURES + 1) // 2
P_L_DISCARD = P_X_CONTESTED + 1
P_L_DRAW = P_L_DISCARD + N_DISCARD_FEATURES
P_L_QUADRATIC = P_L_DRAW + N_DRAW_FEATURES  # 1: the discard model has pair weights
P_L_PAIRS = P_L_QUADRATIC + 1  # N_DISCARD_FEATURES x N_DISCARD_FEATURES, row-major
N_PAIR_SLOTS = N_DISCARD_FEATURES * N_DISCARD_FEATURES
N_CARD_MODEL = P_L_PAIRS + N_PAIR_SLOTS - P_L_DISCARD  # the card_model parameter's slots
P_L_CANDIDATES = P_L_PAIRS + N_PAIR_SLOTS  # score only the N least-deadwood discards (0: all)
P_BASE = P_L_CANDIDATES + 1  # what the policy kernel reads: a plain strategy's vector

# The mc block (read only for KIND_MC rows, by :mod:`ginsim.simulator.search.mc_nb`): search
# sizes, then the rollout strategy's and the opponent model's own P_BASE vectors, so an
# mc seat is still one row.
P_MC_ROLLOUTS = P_BASE
P_MC_PARTICLES = P_MC_ROLLOUTS + 1
P_MC_TEMPERATURE = P_MC_PARTICLES + 1
P_MC_STAGES = P_MC_TEMPERATURE + 1
P_MC_ORACLE = P_MC_STAGES + 1
P_MC_WAIT = P_MC_ORACLE + 1
P_MC_MARGIN = P_MC_WAIT + 1
P_MC_MOVES = P_MC_MARGIN + 1
P_MC_ROLLOUT = P_MC_MOVES + 1  # P_BASE slots
MC_MODELS = 4  # opponent models the mc belief mixes at most (model, model2, ...)
P_MC_MODEL = P_MC_ROLLOUT + P_BASE  # MC_MODELS blocks of P_BASE slots: model k at + k*P_BASE
P_MC_PRIOR = P_MC_MODEL + MC_MODELS * P_BASE  # MC_MODELS prior weights (0: model unused)
P_MC_CARRY = P_MC_PRIOR + MC_MODELS  # 1: the belief carried from choice to choice
P_MC_SEARCHED = P_MC_CARRY + 1  # which choices the search makes: SEARCH_* bits
P_MC_LEARN = P_MC_SEARCHED + 1  # 1: the mixture's weights carried from hand to hand of a game
P_MC_GAME = P_MC_LEARN + 1  # 1: rollouts valued by the chance of winning the game, where known
#: MC_MODELS blocks of P_BASE slots: how the mc seat plays on in a rollout whose opponent is
#: model k (at + k*P_BASE; a block of zeros: its ``rollout`` strategy)
P_MC_RESPONSE = P_MC_GAME + 1
P_SIZE = P_MC_RESPONSE + MC_MODELS * P_BASE

#: The mc player's choices the search may make (bits of ``searched``); the rest are its
#: rollout strategy's.
SEARCH_DRAW = 1  # the draw: the pile card or the stock
SEARCH_CARD = 2  # the card discarded
SEARCH_KNOCK = 4  # whether to knock
SEARCH_ALL = SEARCH_DRAW | SEARCH_CARD | SEARCH_KNOCK
MC_MAX_PARTICLES = 1024  # bounds the mc scratch every driver allocates
MC_MOVES = 4  # the mc belief's default rounds of moves per stage
MODEL_NAMES = ("model",) + tuple(f"model{k + 1}" for k in range(1, MC_MODELS))
RESPONSE_NAMES = ("response",) + tuple(f"response{k + 1}" for k in range(1, MC_MODELS))
#: parameters that hold a plain strategy's vector
NESTED = ("rollout",) + MODEL_NAMES + RESPONSE_NAMES
MC_PARAMETERS = ("rollouts", "particles", "temperature", "stages", "oracle", "wait", "margin",
                 "moves", "prior", "carry", "searched", "learn", "game", *NESTED)


@dataclass(frozen=True)
class Parameter:
    """One documented entry of the strategy vector (``size`` slots from ``index``)."""

    name: str
    index: int
    default: tuple[float, ...]
    help: str
    choices: tuple[str, ...] = ()  # names of the integer codes, when categorical
    low: float = 0
    high: float = 1e9
    integer: bool = True
    aliases: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return len(self.default)

    @property
    def bounds(self) -> str:
        """The allowed values in words (``0..200``, ``one of meld, improve, never``)."""
        if self.choices:
            return "one of " + ", ".join(self.choices)
        kind = "whole numbers" if self.integer else "numbers"
        high = show(int(self.high)) if self.integer else f"{self.high:g}"
        return f"{kind} in {self.low:g}..{high}"

    @property
    def listing(self) -> str:
        """What a spec may give this parameter, for ``ginsim strategies``."""
        if self.name in NESTED:
            return "a plain strategy spec (not mc)"
        if self.name == "grid":
            return "probabilities in 0..1 (-1: none), set by chart=NAME_OR_FILE"
        if self.name == "card_model":
            return "the name of a shipped card play model or an .npz file of its weights"
        return self.bounds + (", or a chart name or file" if self.name == "chart" else "")

    def check(self, values: tuple[float, ...], where: str) -> tuple[float, ...]:
        """``values`` (one per slot) if each is within the bounds; else a ValueError
        naming the parameter, ``where`` it came from and the bounds."""
        high = len(self.choices) - 1 if self.choices else self.high
        if len(values) != self.size or not all(
                is_number(v) and self.low <= v <= high
                and (not self.integer or v == int(v)) for v in values):
            raise ValueError(f"bad value {brief(values)} for {self.name} in {where}: expected "
                             f"{self.size} {self.bounds}")
        if self.name == "edges" and any(a <= b for a, b in zip(values, values[1:],
                                                               strict=False)):
            raise ValueError(f"bad value {'/'.join(f'{v:g}' for v in values)} for edges in "
                             f"{where}: the stock edges must be strictly decreasing, e.g. "
                             f"24/16/8")
        return tuple(float(v) for v in values)


#: The expert block (read only for KIND_EXPERT rows): name, slot, default, bound (values
#: lie in -bound..bound, real numbers) and help. Every row has the same shape, so one
#: definition in :data:`PARAMETERS` makes them all.
EXPERT_WEIGHTS: tuple[tuple[str, int, float, float, str], ...] = (
    ("outs_late", P_X_OUTS_LATE, 1.0, 50,
     "expert: deadwood points a live out is worth with the stock empty (outs is the value "
     "at the deal; linear in the stock between)"),
    ("danger_late", P_X_DANGER_LATE, 2.0, 50,
     "expert: points per unit of feeding risk with the stock empty (danger is the value at "
     "the deal)"),
    ("safe", P_X_SAFE, 0.0, 50,
     "expert: points credited to discarding a card that makes no meld with any cards the "
     "opponent could hold"),
    ("potential", P_X_POTENTIAL, 0.0, 50,
     "expert: points per live card that would pair with, or sit next to, the card discarded "
     "(what the discard gives up beyond its outs)"),
    ("take_meld", P_X_TAKE_MELD, -100.0, 100,
     "expert: take a pile card that melds only if it lowers the hand's deadwood by at least "
     "this (after the discard)"),
    ("take_any", P_X_TAKE_ANY, 100.0, 100,
     "expert: take any other pile card if it lowers the hand's deadwood by at least this "
     "(100: never)"),
    ("lookahead", P_X_LOOKAHEAD, 0.0, 50,
     "expert: weight of the one-ply lookahead, the expected deadwood a draw that melds "
     "nothing cuts from the hand kept (it replaces the highest unmelded card when lower)"),
    ("outs_value", P_X_OUTS_VALUE, 0.0, 50,
     "expert: outs weighed by what they meld: points per 10 points of live outs' value (an "
     "out of a king pair melds more than one of a deuce pair)"),
    ("contested", P_X_CONTESTED, 0.0, 10,
     "expert, memory 2: share of a live out's worth it loses when it would also meld with "
     "the opponent's known cards (the opponent keeps it if drawn)"),
)
#: The mc block's nested strategies (:data:`NESTED`): name, first slot and help. Each holds
#: a plain strategy's whole P_BASE vector, so one definition in :data:`PARAMETERS` makes
#: them all.
NESTED_BLOCKS: tuple[tuple[str, int, str], ...] = (
    ("rollout", P_MC_ROLLOUT,
     "mc: how the mc player plays on inside rollouts, a strategy spec with ';' between its "
     "own parameters (rollout=memory2:knock=8;undercut=1)"),
    ("model", P_MC_MODEL,
     "mc: how the opponent is modelled (belief and rollouts), a strategy spec with ';' "
     "between its own parameters; with model2.. and prior, the first of a mixture"),
    *((name, P_MC_MODEL + k * P_BASE,
       f"mc: opponent model {k + 1} of the belief's mixture (used when its prior weight is "
       f"above 0), a strategy spec as model") for k, name in enumerate(MODEL_NAMES) if k > 0),
    *((name, P_MC_RESPONSE + k * P_BASE,
       f"mc: how the mc player plays on inside rollouts whose opponent plays as "
       f"{MODEL_NAMES[k]} (a strategy spec as rollout; unset: rollout)")
      for k, name in enumerate(RESPONSE_NAMES)),
)


PARAMETERS: dict[str, Parameter] = {
    p.name: p
    for p in (
        Parameter("kind", P_KIND, (KIND_DEADWOOD,),
                  "decision family: deadwood (exact-deadwood play), random, mc (set by "
                  "the mc preset), expert (memory2's information weighed by stage, "
                  "safety and potential: the expert preset) or learned (draw and discard "
                  "by a model learned from mc: the learned preset)",
                  choices=("deadwood", "random", "mc", "expert", "learned")),
        Parameter("knock", P_KNOCK, (10,) * N_BUCKETS,
                  "knock when the kept deadwood is at most this (0 = gin only); one value, "
                  "or one per stock bucket as a/b/c/d (see edges); never above the rules' "
                  "knock limit", high=200, aliases=("t",)),
        Parameter("edges", P_EDGES, (24, 16, 8),
                  "stock-left edges of the knock buckets: bucket 1 is stock >= e1, bucket 2 "
                  ">= e2, bucket 3 >= e3, bucket 4 below (strictly decreasing)", high=31),
        Parameter("draw", P_DRAW, (DRAW_MELD,),
                  "pile draws: meld (only to meld it), improve (if it lowers deadwood), "
                  "never", choices=("meld", "improve", "never")),
        Parameter("memory", P_MEMORY, (0,),
                  "0: hand and pile top only; 1: remembers discards, keeps live outs; "
                  "2: also tracks the opponent's pickups and passes (safe discards, "
                  "undercut estimate)", high=2),
        Parameter("outs", P_OUTS_WEIGHT, (2.0,),
                  "memory >= 1: deadwood points a live out is worth when choosing a discard",
                  high=50, integer=False),
        Parameter("danger", P_DANGER_WEIGHT, (2.0,),
                  "memory 2: deadwood points per unit of risk of feeding the opponent",
                  high=50, integer=False),
        Parameter("undercut", P_UNDERCUT, (1.0,),
                  "wait for gin while the estimated undercut probability of a knock is "
                  "above this (1 = never wait)", high=1, integer=False),
        Parameter("chart", P_CHART, (0,) * N_BUCKETS,
                  "a knock chart per stock bucket: bit d set = knock at deadwood d (bit 0 "
                  "ignored: gin always knocks); 0 = use the knock thresholds; or the name "
                  "or JSON/CSV file of a knock chart (chart=equilibrium), which sets grid",
                  high=2**31),
        Parameter("grid", P_GRID, (-1,) * GRID_CELLS,
                  "knock probability per cell of a knock chart (stock bucket x deadwood x "
                  "opponent's pile takes); set through chart=NAME_OR_FILE; -1 = no chart",
                  low=-1, high=1, integer=False),
        *(Parameter(name, index, (default,), text, low=-bound, high=bound, integer=False)
          for name, index, default, bound, text in EXPERT_WEIGHTS),
        Parameter("rollouts", P_MC_ROLLOUTS, (64,),
                  "mc: rollouts per option (worlds each choice is played out in)", low=1,
                  high=4096),
        Parameter("particles", P_MC_PARTICLES, (64,),
                  "mc: guesses of the opponent's hand the belief keeps", low=1,
                  high=MC_MAX_PARTICLES),
        Parameter("temperature", P_MC_TEMPERATURE, (DEFAULT_TEMPERATURE,),
                  "mc: the belief's softening of the opponent model, in deadwood points",
                  low=0.001, high=100, integer=False),
        Parameter("stages", P_MC_STAGES, (12,),
                  "mc: most tempering stages of the belief", low=1, high=64),
        Parameter("oracle", P_MC_ORACLE, (0,),
                  "mc diagnostic: 1 hands the belief the opponent's true cards (cheats); "
                  "refused in specs, set only by ginsim.strategies.diagnostics.with_oracle",
                  high=1),
        Parameter("wait", P_MC_WAIT, (DEFAULT_WAIT,),
                  "mc: the belief's chance that the opponent plays on where its model would "
                  "knock", low=1e-9, high=1, integer=False),
        Parameter("margin", P_MC_MARGIN, (1.0,),
                  "mc: standard errors by which another choice must beat the rollout "
                  "strategy's own in the rollouts to be played instead (0: the best mean)",
                  low=0, high=10, integer=False),
        Parameter("moves", P_MC_MOVES, (MC_MOVES,),
                  "mc: rounds of Metropolis moves (a hand swap and a draw-order exchange per "
                  "guess) after each tempering stage of the belief", low=1, high=64),
        Parameter("lay", P_LAY, (LAY_AT_ONCE,),
                  "Mahjong gin: lay melds and extensions only once the opponent holds at "
                  "most this many cards (before that, only what a multi-card take obliges); "
                  "52 lays each as soon as it is formed", high=52),
        *(Parameter(name, index, (0,) * P_BASE, text, low=-100, high=2**31, integer=False)
          for name, index, text in NESTED_BLOCKS),
        Parameter("candidates", P_L_CANDIDATES, (0,),
                  "learned: score only the discards whose kept deadwood is among the least "
                  "this many (ties kept; the teacher's choices were 99.8% of the time among "
                  "the least 5); 0 scores every discard", high=11),
        Parameter("card_model", P_L_DISCARD, (0.0,) * N_CARD_MODEL,
                  "learned: the card play model, the name of a shipped model (card_play, "
                  "card_play_linear) or an .npz file written by scripts/train_card_play.py "
                  "(its discard and draw weights, and for a quadratic model its pair "
                  "weights)", low=-1e6, high=1e6, integer=False),
        Parameter("prior", P_MC_PRIOR, (1.0,) + (0.0,) * (MC_MODELS - 1),
                  "mc: prior weights of model, model2, ... in the belief's mixture (0: not "
                  "used); the weights follow the opponent's choices within each hand (and, with "
                  "learn=1, a game's hands before)",
                  high=1e6, integer=False),
        Parameter("carry", P_MC_CARRY, (1,),
                  "mc: 1 carries the belief's guesses from one choice to the next in a hand "
                  "(extended over the new moves, reweighted, resampled and moved); 0 samples "
                  "the whole history again at every choice", high=1),
        Parameter("searched", P_MC_SEARCHED, (SEARCH_ALL,),
                  "mc: which choices the search makes, a sum of 1 (the draw), 2 (the card "
                  "discarded) and 4 (whether to knock); the others are the rollout "
                  "strategy's (a diagnostic of where the search gains)", high=SEARCH_ALL),
        Parameter("learn", P_MC_LEARN, (1,),
                  "mc: 1 carries what each hand of a game showed of the opponent (its "
                  "mixture's posterior weights) into the next hand's prior; 0 starts "
                  "every hand from prior (single hands always do)", high=1),
        Parameter("game", P_MC_GAME, (1,),
                  "1 plays for the game where its score is known (two-player games with "
                  "standard scoring, an agent told the scores), 0 for the hand's points: "
                  "mc values each world by the chance of winning the game from the score it "
                  "leaves; a strategy knocking by a chart family (expert, learned, "
                  "equilibrium) knocks by that family's knock chart for the score "
                  "(docs/game-table.md)", high=1),
    )
}


def default_vector() -> np.ndarray:
    """A parameter vector with every default."""
    vec = np.zeros(P_SIZE, dtype=np.float64)
    for p in PARAMETERS.values():
        vec[p.index:p.index + p.size] = p.default
    return vec
