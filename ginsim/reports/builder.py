"""Build a report: one self-contained HTML file, a Markdown twin with PNGs, and CSV tables.

A :class:`ReportSpec` holds the answer, an optional printable card (a figure shown right
under the answer, written as PNG and SVG), the sections (reading text, optional figure
and table) and the methods. :func:`build_report` fills a fresh directory and swaps it in
place of the target, so an earlier report there is replaced whole. Tables are shown for
people (:func:`~ginsim.reports.text.people_table`); the CSVs keep every digit.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import jinja2
import pandas as pd
from matplotlib.figure import Figure

from ..game.inputs.files import write_bytes_atomic, write_text_atomic
from ._files import replace_dir
from .charts import figure_bytes
from .style import legible
from .text import (
    FOLD_ROWS,
    card_table_html,
    csv_ready,
    inline_html,
    markdown_table,
    people_table,
    prose_html,
    table_html,
)

TEMPLATES = Path(__file__).with_name("templates")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")


@dataclass
class Section:
    """One part of a report: a heading, reading text, and optionally a figure and a table."""

    title: str
    text: str
    figure: Figure | None = None
    figure_name: str | None = None
    table: pd.DataFrame | None = None
    table_name: str | None = None
    shown: pd.DataFrame | None = None  # the table as people see it; default people_table
    terms: list[tuple[str, str]] | None = None  # a definition list (a glossary)
    n_unit: str = "hands"  # what the table's ``n`` column counts, named in CSV and page
    min_n: int | None = None  # rows with a smaller ``n`` read "too few" (people_table)
    anchor: str | None = None  # the section's id in the page (default: s<i>-<title slug>)

    def people(self) -> pd.DataFrame | None:
        """The table as shown in HTML and Markdown (the CSV keeps ``table``'s digits)."""
        if self.table is None:
            return None
        shown = (self.shown if self.shown is not None
                 else people_table(self.table, min_n=self.min_n))
        return shown.rename(columns={"n": self.n_unit[:1].upper() + self.n_unit[1:]})

    def csv_table(self) -> pd.DataFrame:
        """The table as written to CSV: ``n`` named by its unit, floats rounded to what
        they carry (:func:`~ginsim.reports.text.csv_ready`)."""
        return csv_ready(self.table.rename(columns={"n": self.n_unit}))


@dataclass
class ReportSpec:
    """A whole report: the answer first, then the card, the sections and the methods."""

    title: str
    answer: str
    sections: list[Section]
    methods: dict[str, str] = field(default_factory=dict)
    subtitle: str = ""
    card: Figure | None = None  # printable card under the answer: card_name.png and .svg
    card_name: str = "knock_card"
    card_panels: list[tuple[str, pd.DataFrame]] = field(default_factory=list)  # as text
    card_note: str = ""  # the lines under the card: legend, why, where its figures come from


def build_report(spec: ReportSpec, out_dir: str | Path, svg: bool = False) -> dict[str, Path]:
    """Write report.html, report.md, a PNG (and SVG if ``svg``) per figure, the card as PNG
    and SVG, and a CSV per table into ``out_dir``.

    ``out_dir`` must be new, empty, or hold only an earlier ginsim report, which is then
    replaced whole (ValueError otherwise). Returns {file name: path} of everything written.
    """
    check_spec(spec)
    return replace_dir(out_dir, lambda temp: _write_files(spec, temp, svg))


def _write_files(spec: ReportSpec, out: Path, svg: bool) -> dict[str, Path]:
    written: dict[str, Path] = {}
    images: dict[str, bytes] = {}
    figures = [(s.figure_name, s.figure) for s in spec.sections if s.figure is not None]
    if spec.card is not None:
        figures.insert(0, (spec.card_name, spec.card))
    for name, figure in figures:
        images[name] = figure_bytes(legible(figure), "png")
        written[f"{name}.png"] = write_bytes_atomic(out / f"{name}.png", images[name])
        if svg or name == spec.card_name:
            written[f"{name}.svg"] = write_bytes_atomic(out / f"{name}.svg",
                                                        figure_bytes(figure, "svg"))
    for section in spec.sections:
        if section.table is not None:
            written[f"{section.table_name}.csv"] = write_text_atomic(
                out / f"{section.table_name}.csv", section.csv_table().to_csv(index=False))
    written["report.md"] = write_text_atomic(out / "report.md", render_markdown(spec))
    written["report.html"] = write_text_atomic(out / "report.html", render_html(spec, images))
    return written


def check_spec(spec: ReportSpec) -> None:
    """Raise ValueError (one line) on a malformed spec: missing or clashing names, bad types."""
    if not isinstance(spec, ReportSpec):
        raise ValueError(f"build_report: expected a ReportSpec, got {type(spec).__name__}")
    if not str(spec.title).strip():
        raise ValueError("build_report: the report needs a title")
    seen: dict[str, set[str]] = {"figure": {spec.card_name} if spec.card else set(),
                                 "table": set()}
    _check_anchors(spec)
    for i, section in enumerate(spec.sections, start=1):
        where = f"section {i} ({section.title!r})"
        if not str(section.title).strip():
            raise ValueError(f"build_report: section {i} has no title")
        for kind, value, name, cls in (("figure", section.figure, section.figure_name, Figure),
                                       ("table", section.table, section.table_name,
                                        pd.DataFrame)):
            if value is None and name is None:
                continue
            if value is None:
                raise ValueError(f"build_report: {where} has a {kind}_name but no {kind}")
            if not isinstance(value, cls):
                raise ValueError(f"build_report: {where} {kind} is a {type(value).__name__}, "
                                 f"not a {cls.__name__}")
            if name is None:
                raise ValueError(f"build_report: {where} has a {kind} but no {kind}_name")
            if not _NAME.fullmatch(name):
                raise ValueError(f"build_report: {where} {kind}_name {name!r} must be letters, "
                                 "digits, '_' or '-'")
            if name in seen[kind]:
                raise ValueError(f"build_report: duplicate {kind}_name {name!r}")
            seen[kind].add(name)


def _check_anchors(spec: ReportSpec) -> None:
    """ValueError for a section anchor that is no plain name or is used twice in the page."""
    anchors = {"answer", "methods", spec.card_name.replace("_", "-")}
    for i, section in enumerate(spec.sections, start=1):
        if section.anchor is None:
            continue
        if not _NAME.fullmatch(section.anchor) or section.anchor in anchors:
            raise ValueError(f"build_report: section {i} ({section.title!r}) anchor "
                             f"{section.anchor!r} must be letters, digits, '_' or '-', used "
                             "once in the page")
        anchors.add(section.anchor)


def render_html(spec: ReportSpec, images: dict[str, bytes]) -> str:
    """The self-contained HTML page (figures given as PNG bytes by figure name)."""
    sections = []
    for i, section in enumerate(spec.sections, start=1):
        image = images.get(section.figure_name) if section.figure is not None else None
        shown = section.people()
        sections.append({
            "id": section.anchor or f"s{i}-{_slug(section.title)}",
            "title": inline_html(section.title),
            "text": prose_html(section.text),
            "image": base64.b64encode(image).decode("ascii") if image else None,
            "alt": figure_alt(section.figure, section.title) if image else "",
            "table": table_html(shown) if shown is not None else None,
            "rows": len(shown) if shown is not None else 0,
            "table_name": section.table_name,
            "terms": section.terms or [],
        })
    card = None
    if spec.card is not None and spec.card_name in images:
        card = {"image": base64.b64encode(images[spec.card_name]).decode("ascii"),
                "alt": figure_alt(spec.card, "Knock card"), "name": spec.card_name,
                "panels": [(inline_html(title), card_table_html(grid))
                           for title, grid in spec.card_panels],
                "note": prose_html(spec.card_note) if spec.card_note else ""}
    return _environment().get_template("report.html.j2").render(
        title=spec.title, subtitle=spec.subtitle, answer=prose_html(spec.answer),
        card=card, sections=sections, fold_rows=FOLD_ROWS,
        methods=[(inline_html(k), prose_html(v)) for k, v in spec.methods.items()])


def render_markdown(spec: ReportSpec) -> str:
    """The Markdown twin of the report; figures refer to ``<figure_name>.png`` beside it.
    Its first paragraph is the answer."""
    lines = [f"# {spec.title}", ""]
    answer = " ".join(spec.answer.split())
    lines += [f"**Answer.** {answer}", ""]
    if spec.subtitle:
        lines += [f"_{spec.subtitle}_", ""]
    if spec.card is not None:
        alt = figure_alt(spec.card, "Knock card").replace("[", "(").replace("]", ")")
        lines += [f"![{alt}]({spec.card_name}.png)", ""]
        for title, grid in spec.card_panels:
            lines += [f"**{title}** (rows: your deadwood; columns: cards left in the stock)",
                      "", markdown_table(grid.rename_axis("Deadwood").reset_index()), ""]
        if spec.card_note:
            lines += [" ".join(spec.card_note.split()), ""]
        lines += [f"Printable: [{spec.card_name}.svg]({spec.card_name}.svg), "
                  f"[{spec.card_name}.png]({spec.card_name}.png)", ""]
    for section in spec.sections:
        lines += [f"## {section.title}", "", section.text.strip(), ""]
        if section.terms:
            lines += [*(f"- **{term}**: {meaning}" for term, meaning in section.terms), ""]
        if section.figure is not None:
            alt = figure_alt(section.figure, section.title).replace("[", "(").replace("]", ")")
            lines += [f"![{alt}]({section.figure_name}.png)", ""]
        shown = section.people()
        if shown is not None:
            lines += [markdown_table(shown), "",
                      f"Data: [{section.table_name}.csv]({section.table_name}.csv)", ""]
    if spec.methods:
        lines += ["## Methods", ""]
        lines += [f"- **{term}**: {' '.join(text.split())}" for term, text in spec.methods.items()]
        lines.append("")
    return "\n".join(lines)


def figure_alt(fig: Figure, fallback: str) -> str:
    """Alt text: the figure's title and its caption line (``fallback`` when untitled)."""
    title = fig.get_suptitle() or next((ax.get_title() for ax in fig.axes if ax.get_title()), "")
    notes = [t.get_text() for t in fig.texts if t.get_text().strip() and t.get_text() != title]
    return " — ".join(" ".join(p.split()) for p in [title or fallback, *notes])


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "section"


@cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                              undefined=jinja2.StrictUndefined, trim_blocks=True,
                              lstrip_blocks=True, keep_trailing_newline=True)
