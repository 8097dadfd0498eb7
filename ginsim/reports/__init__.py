"""matplotlib charts and the HTML/Markdown report builder.

Charts are pure functions from tidy DataFrames to matplotlib Figures (no pyplot);
:func:`build_report` turns a :class:`ReportSpec` into report.html, report.md, PNGs and CSVs.
Names load on first use, so the command line's terminal text (:mod:`.terminal`) starts
without matplotlib.
"""

from importlib import import_module

_HOMES = {
    "ReportSpec": "builder", "Section": "builder", "build_report": "builder",
    "figure_bytes": "charts", "hand_length_chart": "charts", "heatmap_chart": "heatmap",
    "outcome_mix_chart": "charts", "save_figure": "charts", "threshold_chart": "charts",
    "undercut_chart": "charts", "variant_chart": "charts", "markdown_table": "text",
}
__all__ = list(_HOMES)


def __getattr__(name: str):
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{_HOMES[name]}", __name__), name)
    globals()[name] = value
    return value
