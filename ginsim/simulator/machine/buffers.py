"""Named work arrays for the kernels: the Python layer allocates them, the kernels fill
them (they allocate nothing themselves, see :mod:`ginsim.game._jit`).

Each is a namedtuple of numpy arrays, which numba passes and reads by field in nopython
mode:

- :class:`McMemory`, the search memory of an mc seat (:mod:`ginsim.simulator.search.mc_nb`):
  the hand's public events, the belief's particles and the rollouts' worlds;
- :class:`~ginsim.game.state.Board`, a hand state with its scratch (:func:`new_board`);
- :class:`HandBuffers`, what the hand loop (:mod:`ginsim.simulator.play.hand_nb`) writes to:
  the records, the trace, the board, the players' random streams, the memory and what
  an mc seat's choices are written to (None, or the teacher's ``Lessons``);
- :class:`GameBuffers`, the game schedulers': the hands' and the games' scoring
  states, and :class:`Schedule`, how the games are played;
- :class:`ChartBuffers`, the knock chart's (:mod:`ginsim.simulator.branches.chart_nb`): its rows
  and trace, and a board, streams and memory for the hand and for its branches;
- :class:`Search`, the settings of one mc choice (not an array: a value the mc kernels
  return and take).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...game.melds_nb import WORK_SIZE
from ...game.state import HS_SIZE, Board
from ...strategies.mahjong_plan_nb import PLAN_SIZE
from ...strategies.params import MC_MAX_PARTICLES, MC_MODELS, P_BASE, PARAMETERS
from .records import TRACE_WIDTH

MEMORY_EVENTS = 1200  # MAX_TURNS draws, two events each, and the offers
MAX_MC_ROLLOUTS = int(PARAMETERS["rollouts"].high)
SOURCE_WIDTH = 52 + MC_MODELS  # a guess's draw order, then its per-model log likelihoods
NO_WIN_TABLE = np.zeros((1, 1))  # no mc seat plays for the game: hands are worth their points

McMemory = namedtuple("McMemory", (
    "events",  # int64[MEMORY_EVENTS, 4]: (seat, kind, card, flag), absolute seats
    "n_events",  # int64[1]: events recorded this hand
    "rel",  # int64[MEMORY_EVENTS, 4]: the events, seats relative to the deciding seat
    "ev_card",  # int64[MEMORY_EVENTS]: a guess's card drawn at each opponent stock event
    "unseen_cards",  # int64[52]: the cards the deciding seat has not seen
    "order",  # int64[52]: a world's shuffle of the stock
    "hands",  # int64[MC_MAX_PARTICLES]: the guesses of the opponent's hand
    "tmp_hands",  # int64[MC_MAX_PARTICLES]: their resampling copy
    "logl",  # float64[MC_MAX_PARTICLES]: each guess's log likelihood
    "base",  # float64[MC_MAX_PARTICLES]: each guess's log prior/proposal weight
    "weights",  # float64[MC_MAX_PARTICLES]: the guesses' normalised weights
    "tmp_logl",  # float64[MC_MAX_PARTICLES]: the resampling copy of ``logl``
    "rows",  # float64[2, P_BASE]: the phases' row pair (an mc seat: its rollout strategy)
    "model_rows",  # float64[MC_MODELS, 2, P_BASE]: the belief's rows, one pair per model
    "pairs",  # float64[MC_MODELS, 2, P_BASE]: the rollouts' rows per model, absolute seats
    "log_prior",  # float64[MC_MODELS]: log prior weights of the models mixed now
    "lk",  # float64[MC_MODELS]: a buffer of one log likelihood per model
    "n_models",  # int64[1]: the number of models mixed now
    "resp",  # float64[MC_MAX_PARTICLES, MC_MODELS]: cumulative model weights per guess
    "values",  # float64[2, MAX_MC_ROLLOUTS]: per-world values, default choice and another
    "source",  # int64[MC_MAX_PARTICLES * SOURCE_WIDTH]: each guess's draw order row
    "tmp_source",  # int64[MC_MAX_PARTICLES * SOURCE_WIDTH]: their resampling copy
    "branch",  # Board: the hand state a rollout world is played on, and its scratch
    "replay",  # Board: the hand state the belief replays the history on, and its scratch
    "rng",  # uint64[3]: the random streams of the belief and of the rollout worlds
    "carried",  # int64[3]: the guesses' seat + 1 (0: none this hand), events, particles
    "slots",  # int64[MC_MODELS]: the model slot (model, model2, ...) of each model mixed now
    "base_prior",  # float64[MC_MODELS]: their log prior weights before anything learned
    "learned",  # float64[2, MC_MODELS]: per seat, log evidence per model slot, earlier hands
    "pending",  # float64[2, MC_MODELS]: per seat, this hand's evidence per model slot so far
    "session",  # int64[3]: [0] 1 while a game's hands follow each other; [1 + seat] 1 when
    #            pending[seat] holds this hand's evidence
    "scores",  # int64[3]: [0] 1 when the game's score is known (the rollouts then value a
    #           world by ``win_table``), [1 + seat] that seat's points toward the target
    "win_table",  # float64[T, T]: the chance of winning a game to T from (own, other) points
    "empty_trace",  # int64[0, TRACE_WIDTH]: rollouts trace nothing
))

HandBuffers = namedtuple("HandBuffers", ("out", "trace", "board", "rng", "mem", "lessons"))
#: The game schedulers' (:mod:`ginsim.simulator.play.games_nb`): each hand's game, hand and
#: players (``meta``), each game's scoring state (``sides``, ``games``) and the hands'.
GameBuffers = namedtuple("GameBuffers", ("meta", "sides", "games", "hands"))
ChartBuffers = namedtuple("ChartBuffers", (
    "rows", "trace", "board", "rng", "mem", "branch", "branch_rng", "branch_mem"))

#: How games are played: the packed rules, the card tables, the packed game rules
#: (:func:`~ginsim.game.scoring.game_scoring_nb.pack_game_rules`), the scoring system and match
#: total of two-player games (0 for three and four players) and the cap on a game's
#: hands (rounds for teams), the chance of winning a game from each score that an mc
#: seat playing for the game reads (:func:`new_mc_memory`; the kernels read it there), and
#: the two sides' points when a two-player game starts (int64, ``(0, 0)`` for a new game).
Schedule = namedtuple("Schedule", ("rules", "tab", "gr", "system", "match_total",
                                   "max_hands", "win_table", "start"),
                      defaults=(np.zeros(2, dtype=np.int64),))  # kernels never write it

#: One mc choice: the guesses sampled (``particles``), the unseen-card mask, the choice's
#: stream key, the worlds per option, the margin (in standard errors) another option
#: must gain, ``exclude``, the mask of the card the seat just drew from the stock (no
#: guess of the opponent's hand may hold it), ``searched``, the ``SEARCH_*`` bits of
#: the choices the search makes (the others are the rollout strategy's), and ``game``, 1
#: when a world is valued by the chance of winning the game (``McMemory.win_table``).
Search = namedtuple("Search", ("particles", "unseen", "key", "rollouts", "margin", "exclude",
                               "searched", "game"))


def new_board() -> Board:
    """A zeroed hand state with its own meld and plan search scratch (about 0.2 MB)."""
    return Board(np.zeros(HS_SIZE, dtype=np.int64), np.zeros(WORK_SIZE, dtype=np.int64),
                 np.zeros(PLAN_SIZE, dtype=np.int64))


def new_mc_memory(win_table: np.ndarray | None = None) -> McMemory:
    """A zeroed search memory (about 0.6 MB), with the game's ``win_table``
    (:func:`~ginsim.simulator.search.win_table.game_win_table`; without, :data:`NO_WIN_TABLE`: hands
    are valued by their points)."""
    m = MC_MAX_PARTICLES
    return McMemory(
        events=np.zeros((MEMORY_EVENTS, 4), dtype=np.int64),
        n_events=np.zeros(1, dtype=np.int64),
        rel=np.zeros((MEMORY_EVENTS, 4), dtype=np.int64),
        ev_card=np.zeros(MEMORY_EVENTS, dtype=np.int64),
        unseen_cards=np.zeros(52, dtype=np.int64),
        order=np.zeros(52, dtype=np.int64),
        hands=np.zeros(m, dtype=np.int64),
        tmp_hands=np.zeros(m, dtype=np.int64),
        logl=np.zeros(m),
        base=np.zeros(m),
        weights=np.zeros(m),
        tmp_logl=np.zeros(m),
        rows=np.zeros((2, P_BASE)),
        model_rows=np.zeros((MC_MODELS, 2, P_BASE)),
        pairs=np.zeros((MC_MODELS, 2, P_BASE)),
        log_prior=np.zeros(MC_MODELS),
        lk=np.zeros(MC_MODELS),
        n_models=np.zeros(1, dtype=np.int64),
        resp=np.zeros((m, MC_MODELS)),
        values=np.zeros((2, MAX_MC_ROLLOUTS)),
        source=np.zeros(m * SOURCE_WIDTH, dtype=np.int64),
        tmp_source=np.zeros(m * SOURCE_WIDTH, dtype=np.int64),
        branch=new_board(),
        replay=new_board(),
        rng=np.zeros(3, dtype=np.uint64),
        carried=np.zeros(3, dtype=np.int64),
        slots=np.zeros(MC_MODELS, dtype=np.int64),
        base_prior=np.zeros(MC_MODELS),
        learned=np.zeros((2, MC_MODELS)),
        pending=np.zeros((2, MC_MODELS)),
        session=np.zeros(3, dtype=np.int64),
        scores=np.zeros(3, dtype=np.int64),
        # a writeable copy: numba compiles a read-only array as another type
        win_table=np.array(NO_WIN_TABLE if win_table is None else win_table,
                           dtype=np.float64),
        empty_trace=np.zeros((0, TRACE_WIDTH), dtype=np.int64),
    )


def hand_buffers(out: np.ndarray, trace: np.ndarray, win_table: np.ndarray | None = None
                 ) -> HandBuffers:
    """The hand loop's buffers around a record array ``out`` and a ``trace`` (an mc
    seat playing for the game reads ``win_table``, see :func:`new_mc_memory`)."""
    return HandBuffers(out, trace, new_board(), np.zeros(3, dtype=np.uint64),
                       new_mc_memory(win_table), None)


def chart_buffers(rows: np.ndarray, trace: np.ndarray) -> ChartBuffers:
    """The knock chart's buffers around its ``rows`` and a ``trace``."""
    return ChartBuffers(rows, trace, new_board(), np.zeros(3, dtype=np.uint64),
                        new_mc_memory(), new_board(), np.zeros(3, dtype=np.uint64),
                        new_mc_memory())
