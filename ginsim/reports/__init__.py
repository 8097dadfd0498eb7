"""matplotlib charts and the HTML/Markdown report builder.

Charts are pure functions from tidy DataFrames to matplotlib Figures (no pyplot);
:func:`build_report` turns a :class:`ReportSpec` into report.html, report.md, PNGs and CSVs.
"""

from .builder import ReportSpec, Section, build_report
from .charts import (
    figure_bytes,
    hand_length_chart,
    heatmap_chart,
    outcome_mix_chart,
    save_figure,
    threshold_chart,
    undercut_chart,
    variant_chart,
)
from .text import markdown_table

__all__ = ["ReportSpec", "Section", "build_report", "figure_bytes", "hand_length_chart",
           "heatmap_chart", "markdown_table", "outcome_mix_chart", "save_figure",
           "threshold_chart", "undercut_chart", "variant_chart"]
