"""The shipped equilibrium knock charts: one per knocking rules preset.

``scripts/make_equilibrium.py`` makes them; a chart answers for every rule set whose
hands play and score alike (the game target and boxes do not change a hand, so
``competitive`` shares ``modern``'s chart). Each file's ``info`` records the command,
seed, date, hands and exploitability it was made with.
"""

from __future__ import annotations

from functools import cache

from ...game.rules import Rules
from .knock_charts import CHART_FAMILIES, KnockChart, load_chart

#: Rules presets that allow knocking (``straight`` and ``mahjong`` do not).
KNOCKING_PRESETS = ("modern", "classic", "palace", "competitive", "oklahoma", "tedesco",
                    "big_gin", "eleven", "last_discard")


#: The card plays the shipped charts are made for (:data:`CHART_FAMILIES`): memory2 (the
#: ``equilibrium`` preset's), expert (the ``expert`` preset's, and the report's answer)
#: and learned (the ``learned`` preset's).
CHART_BASES = tuple(CHART_FAMILIES.values())
#: card play -> the name of its shipped modern equilibrium chart, the stem of the others'
EQUILIBRIUM_STEMS = {base: stem for stem, base in CHART_FAMILIES.items()}


def equilibrium_chart_name(preset: str, base: str = "memory2") -> str:
    """The shipped chart of ``preset`` for ``base`` card play: ``equilibrium`` for modern
    and memory2 (the preset of that name), else ``equilibrium_PRESET``; with expert card
    play ``equilibrium_expert`` and ``equilibrium_expert_PRESET``, with learned card play
    ``equilibrium_learned`` and ``equilibrium_learned_PRESET``."""
    return shipped_chart_name("equilibrium", EQUILIBRIUM_STEMS, preset, base)


def shipped_chart_name(kind: str, stems: dict[str, str], preset: str, base: str) -> str:
    """The shipped ``kind`` chart ("equilibrium", "score") of rules ``preset`` for
    ``base`` card play: ``stems[base]`` for modern, else ``STEM_PRESET``; a ValueError
    names the knocking presets, or the card plays ``stems`` has."""
    if preset not in KNOCKING_PRESETS:
        raise ValueError(f"no {kind} chart for rules preset {preset!r}: choose one of "
                         f"{', '.join(KNOCKING_PRESETS)}")
    if base not in stems:
        raise ValueError(f"no shipped {kind} charts for {base!r} card play: choose one of "
                         f"{', '.join(stems)}")
    return stems[base] if preset == "modern" else f"{stems[base]}_{preset}"


def hand_key(rules: Rules) -> tuple[int, ...]:
    """What the hand kernels read of ``rules`` (the packed array and the card values):
    two rule sets with the same key play and score every hand alike."""
    return (*(int(v) for v in rules.packed()), *(int(v) for v in rules.rank_values()),
            int(rules.run_wrap))


@cache
def _shipped(base: str) -> tuple[tuple[tuple[int, ...], str, KnockChart], ...]:
    """(hand key, name, chart) of every shipped equilibrium chart for ``base`` card play,
    each file read once through the chart reader."""
    out = []
    for preset in KNOCKING_PRESETS:
        name = equilibrium_chart_name(preset, base)
        try:
            chart = load_chart(name)
            out.append((hand_key(Rules(**chart.info["rules_fields"])), name, chart))
        except (KeyError, TypeError, ValueError):
            continue
    return tuple(out)


def shipped_equilibrium(rules: Rules, base: str = "memory2"
                        ) -> tuple[str, KnockChart] | None:
    """The name and chart (its ``info`` the file's record) of the shipped equilibrium
    chart for ``base`` card play made under hand rules equal to ``rules``' (None when no
    shipped chart was)."""
    key = hand_key(rules)
    return next(((name, chart) for shipped_key, name, chart in _shipped(base)
                 if shipped_key == key), None)
