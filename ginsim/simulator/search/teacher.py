"""The teacher: mc's hands played by the hand loop itself
(:func:`~ginsim.simulator.play.hand_nb.simulate_nb`), with the mc seat's draw and
discard choices written down as training rows for the learned card play (the recorder
of :mod:`ginsim.simulator.search.lessons_nb`, given to the hand loop's buffers)."""

from __future__ import annotations

import numpy as np

from ...game.card_tables import card_tables
from ...game.rng_nb import check_seed
from ...game.rules import Rules
from ...strategies.params import N_DISCARD_FEATURES, N_DRAW_FEATURES
from ...strategies.presets import parse_strategy
from ..limits import check_hands
from ..machine.buffers import hand_buffers
from ..machine.records import RECORD_DTYPE, TRACE_WIDTH
from ..play.engine import seat_params
from ..play.hand_nb import hand_params, simulate_nb
from .lessons_nb import DISCARD_META, DRAW_META, Lessons

DRAWS_PER_HAND = 40  # room for the mc seat's draws in a hand (it makes far fewer)
OPTIONS_PER_HAND = 11 * DRAWS_PER_HAND  # and for its discard options
MAX_TEACHER_HANDS = 100_000  # hands one call plays (its rows' buffers grow with them)


def new_lessons(hands: int) -> Lessons:
    """Empty :class:`Lessons` with room for ``hands`` hands' decisions."""
    draws = hands * DRAWS_PER_HAND
    options = hands * OPTIONS_PER_HAND
    return Lessons(np.zeros((draws, N_DRAW_FEATURES)), np.zeros((draws, len(DRAW_META)),
                                                                dtype=np.int64),
                   np.zeros((draws, 2)), np.zeros((options, N_DISCARD_FEATURES)),
                   np.zeros((options, len(DISCARD_META)), dtype=np.int64),
                   np.zeros((options, 2)), np.zeros(3, dtype=np.int64))


def teacher_lessons(teacher: str, opponent: str, *, start: int, stop: int, seed: int = 0,
                    rules: Rules | str | None = None) -> tuple[Lessons, np.ndarray]:
    """Play hands ``start .. stop-1`` with the mc spec ``teacher`` as seat a against
    ``opponent`` (seat a deals the even hands) exactly as :func:`ginsim.simulate` would,
    and return the mc seat's choices as :class:`Lessons` (cut to the rows written) and
    the hands' records."""
    seed = check_seed(seed)
    start = check_hands(start, "start")
    stop = check_hands(stop, "stop")
    if not 0 < stop - start <= MAX_TEACHER_HANDS:
        raise ValueError(f"play 1..{MAX_TEACHER_HANDS:,} hands per call, not {stop - start:,}")
    if not parse_strategy(teacher).is_mc:
        raise ValueError(f"the teacher must be an mc strategy, not {teacher!r}")
    rules = Rules.coerce(rules)
    params = hand_params(seat_params(teacher, opponent, rules))
    lessons = new_lessons(stop - start)
    out = np.zeros(stop - start, dtype=RECORD_DTYPE)
    buf = hand_buffers(out, np.zeros((0, TRACE_WIDTH), dtype=np.int64))._replace(
        lessons=lessons)
    simulate_nb(np.uint64(seed), start, stop, False, params, rules.packed(),
                card_tables(rules), buf)
    draws, _, options = (int(n) for n in lessons.count)
    cut = Lessons(lessons.draw_x[:draws], lessons.draw_meta[:draws], lessons.draw_v[:draws],
                  lessons.disc_x[:options], lessons.disc_meta[:options],
                  lessons.disc_v[:options], lessons.count)
    return cut, out
