"""A game's review for the page: the review of ``ginsim.analysis.review`` (each of your
decisions against the best, the graph's points and the flagged positions) of a game
played here or of a record uploaded.
"""

from __future__ import annotations

from collections.abc import Callable

from ..analysis.review import review_game
from ..strategies.charts.knock_charts import spec_chart_files
from ..table.records.game_record import record_text
from ..table.records.record_reader import read_record


def review_message(lines: list[dict] | None, text: object,
                   progress: Callable[[int, int], None] | None = None,
                   rollouts: int | None = None) -> dict:
    """The review of a record (its ``lines`` as a game writes them, or an uploaded
    ``text``) as the page draws it: with the review's own rollouts (more where a choice
    needs them to be told from the best), or a fixed ``rollouts`` a decision (quicker,
    rougher). ValueError with one line when the record is not one, or its bot plays a
    chart file."""
    if lines is None and not isinstance(text, str):
        raise ValueError('review: send "game" (one of your games) or "record" (the text '
                         "of a game record file)")
    record = read_record((record_text(lines) if lines is not None else text).splitlines())
    if lines is None:
        for seat in record.seats:
            spec = seat.get("spec")
            if isinstance(spec, str) and spec_chart_files(spec):
                raise ValueError("review: this record's seat "
                                 f"{str(seat.get('name'))[:40]!r} plays a chart file; the page "
                                 "reviews records of built-in bots only (use ginsim review "
                                 "for this one)")
    options = {} if rollouts is None else {"rollouts": rollouts, "precision": None}
    review = review_game(record, progress=progress, **options)
    return {"type": "review", **review.to_json()}
