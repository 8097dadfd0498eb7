"""Report charts and the HTML/Markdown builder, on small hand-made tables."""

from __future__ import annotations

import base64
import io
import re
from html.parser import HTMLParser
from pathlib import Path

import matplotlib.image as mpimg
import numpy as np
import pandas as pd
import pytest
from matplotlib.container import BarContainer
from matplotlib.figure import Figure

from ginsim.reports import (
    ReportSpec,
    Section,
    build_report,
    hand_length_chart,
    heatmap_chart,
    markdown_table,
    outcome_mix_chart,
    save_figure,
    threshold_chart,
    undercut_chart,
    variant_chart,
)

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


# ---------------------------------------------------------------- small input tables

def undercut_frame(series: bool = True) -> pd.DataFrame:
    rows = []
    for name, base in ([("classic", 0.05), ("modern", 0.10)] if series else [(None, 0.05)]):
        for d in range(1, 11):
            rate = base + 0.02 * d
            rows.append({"deadwood": d, "rate": rate, "low": rate - 0.01, "high": rate + 0.01,
                         "n": 1000 + d, **({"series": name} if name else {})})
    return pd.DataFrame(rows)


def threshold_frame() -> pd.DataFrame:
    t = np.arange(11)
    parts = []
    for opponent, means in [("simple", -((t - 4) ** 2) / 10 + 0.5),
                            ("random", -((t - 8) ** 2) / 20 + 1.0)]:
        parts.append(pd.DataFrame({"threshold": t, "opponent": opponent, "mean": means,
                                   "low": means - 0.1, "high": means + 0.1, "n": 5000}))
    return pd.concat(parts, ignore_index=True)


def heat_frame() -> pd.DataFrame:
    rows = [(a, b, (a - b) / 2.0, 100) for a in range(5) for b in range(4)]
    frame = pd.DataFrame(rows, columns=["threshold_a", "threshold_b", "points", "n"])
    frame.loc[(frame.threshold_a == 0) & (frame.threshold_b == 3), "points"] = np.nan
    frame["verdict"] = np.where(frame["points"].abs() < 1, "unclear", "knock")
    return frame


def outcome_frame() -> pd.DataFrame:
    shares = {"knock": 0.6, "gin": 0.2, "big_gin": 0.01, "undercut": 0.1, "dead": 0.09}
    rows = [(label, outcome, rate, rate - 0.01, rate + 0.01, 10_000)
            for label in ["simple vs simple", "simple vs t=6", "classic rules"]
            for outcome, rate in shares.items()]
    return pd.DataFrame(rows, columns=["label", "outcome", "rate", "low", "high", "n"])


def hand_length_frame() -> pd.DataFrame:
    return pd.DataFrame({"turns": [4, 5, 6, 7, 8], "count": [10, 30, 40, 15, 5]})


def variant_frame() -> pd.DataFrame:
    stats = {"rate_gin": 0.2, "rate_undercut": 0.1, "rate_dead": 0.05, "mean_turns": 12.0}
    rows = [(variant, s, v * k, v * k * 0.9, v * k * 1.1, 20_000)
            for k, variant in enumerate(["classic", "modern", "palace"], start=1)
            for s, v in stats.items()]
    return pd.DataFrame(rows, columns=["variant", "statistic", "value", "low", "high", "n"])


def caption(fig: Figure) -> str:
    return " ".join(t.get_text() for t in fig.texts)


def png_shape(data: bytes) -> tuple[int, ...]:
    return mpimg.imread(io.BytesIO(data), format="png").shape


# ---------------------------------------------------------------- charts

def test_undercut_chart_lines_bands_labels_and_caption():
    fig = undercut_chart(undercut_frame(), title="Undercuts")
    (ax,) = fig.axes
    assert ax.get_title() == "Undercuts"
    assert ax.get_xlabel() == "Knocker deadwood (points)"
    assert "%" in ax.get_ylabel()
    assert len(ax.get_lines()) == 2 and len(ax.collections) == 2   # two lines, two CI bands
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["classic", "modern"]
    assert "n = 20,110 knocks" in caption(fig) and "95% CI" in caption(fig)
    xs, ys = ax.get_lines()[0].get_data()
    assert list(xs) == list(range(1, 11)) and ys[0] == pytest.approx(0.07)
    fig.canvas.draw()
    assert ax.yaxis.get_major_formatter()(0.25, 0) == "25%"
    assert tuple(fig.get_size_inches()) == (5.4, 3.9)  # narrow: legible on a phone


def test_undercut_chart_single_series_has_no_legend():
    fig = undercut_chart(undercut_frame(series=False))
    assert len(fig.axes[0].get_lines()) == 1 and fig.axes[0].get_legend() is None


def test_threshold_chart_marks_each_opponents_best_threshold():
    fig = threshold_chart(threshold_frame())
    ax = fig.axes[0]
    assert ax.get_xlabel() == "Knock threshold (deadwood points)"
    assert "points" in ax.get_ylabel().lower()
    stars = [line for line in ax.get_lines() if line.get_gid() == "best-threshold"]
    best = sorted((float(s.get_xdata()[0]), float(s.get_ydata()[0])) for s in stars)
    assert best == [(4.0, 0.5), (8.0, 1.0)]
    zero = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
    assert len(zero) == 1 and list(zero[0].get_ydata()) == [0, 0]
    assert "best threshold" in [t.get_text() for t in ax.get_legend().get_texts()]
    assert "n = 110,000 hands" in caption(fig)


def test_heatmap_chart_cells_annotations_nan_and_verdict_hatching():
    df = heat_frame()
    fig = heatmap_chart(df, "threshold_a", "threshold_b", "points", "Mean points",
                        "Points per hand", diverging=True, x_label="Threshold A (points)")
    ax = fig.axes[0]
    image = ax.get_images()[0]
    grid = image.get_array()
    assert grid.shape == (4, 5)                                   # y rows x x columns
    assert grid.mask.sum() == 1 and grid[2, 4] == pytest.approx(1.0)   # (a=4, b=2)
    assert image.norm.vcenter == 0 and image.norm.vmin == -image.norm.vmax
    assert len(ax.texts) == 19                                   # NaN cell not annotated
    assert {"2.0", "-1.0"} <= {t.get_text() for t in ax.texts}
    hatched = [p for p in ax.patches if p.get_gid() == "unclear"]
    assert len(hatched) == int((df["verdict"] == "unclear").sum())
    assert ax.get_xlabel() == "Threshold A (points)" and ax.get_ylabel() == "threshold_b"
    assert "hatched: unclear" in caption(fig) and "n = 2,000 hands" in caption(fig)
    assert fig.axes[1].get_ylabel() == "Points per hand"         # colour bar


def test_heatmap_chart_sequential_without_annotations_and_duplicate_cells():
    df = heat_frame().drop(columns=["verdict", "n"])
    fig = heatmap_chart(df.assign(n=7), "threshold_a", "threshold_b", "points", "t", "v",
                        annotate=False, unit="decisions")
    assert caption(fig) == "n = 140 decisions; grey: no data"
    assert len(fig.axes[0].texts) == 0 and fig.axes[0].get_images()[0].get_cmap().name == "viridis"
    with pytest.raises(ValueError, match="more than one row"):
        heatmap_chart(pd.concat([df, df.head(1)]), "threshold_a", "threshold_b", "points",
                      "t", "v")


def test_outcome_mix_chart_grouped_bars_with_error_bars():
    fig = outcome_mix_chart(outcome_frame())
    ax = fig.axes[0]
    groups = [c for c in ax.containers if isinstance(c, BarContainer)]
    bars = [p for c in groups for p in c.patches]
    assert len(groups) == 5 and len(bars) == 15
    assert [t.get_text() for t in ax.get_xticklabels()] == ["simple\nvs simple",
                                                           "simple\nvs t=6", "classic rules"]
    assert max(b.get_height() for b in bars) == pytest.approx(0.6)
    assert all(c.errorbar is not None for c in groups)
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend == ["knock", "gin", "big gin", "undercut", "dead"]
    assert "n = 10,000 hands per label" in caption(fig)


def test_hand_length_chart_shares_sum_to_one_and_mean_in_caption():
    fig = hand_length_chart(hand_length_frame())
    ax = fig.axes[0]
    heights = [p.get_height() for p in ax.patches]
    assert len(heights) == 5 and sum(heights) == pytest.approx(1.0)
    assert heights[2] == pytest.approx(0.4)
    assert "n = 100 hands" in caption(fig) and "mean 5.8 draws" in caption(fig)
    assert ax.get_xlabel() == "Draws in the hand (turns)"


def test_hand_length_chart_several_series_are_steps_with_a_legend():
    df = pd.concat([hand_length_frame().assign(series="a"),
                    hand_length_frame().assign(series="b", turns=lambda f: f.turns + 2)])
    fig = hand_length_chart(df)
    ax = fig.axes[0]
    assert len(ax.get_lines()) == 2 and ax.get_legend() is not None
    assert "a: 5.8" in caption(fig) and "b: 7.8" in caption(fig)


def test_variant_chart_one_panel_per_statistic():
    fig = variant_chart(variant_frame())
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in visible] == ["Gin rate", "Undercut rate", "Dead rate",
                                                  "Mean turns"]
    assert all(len(ax.patches) == 3 for ax in visible)
    assert visible[3].patches[2].get_height() == pytest.approx(36.0)
    assert visible[0].yaxis.get_major_formatter()(0.2, 0) == "20%"
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["classic", "modern", "palace"]
    assert fig.get_suptitle() == "Rule variants compared"


@pytest.mark.parametrize(("chart", "frame", "column"), [
    (undercut_chart, undercut_frame, "high"),
    (threshold_chart, threshold_frame, "opponent"),
    (outcome_mix_chart, outcome_frame, "outcome"),
    (hand_length_chart, hand_length_frame, "count"),
    (variant_chart, variant_frame, "statistic"),
])
def test_missing_column_is_named(chart, frame, column):
    with pytest.raises(ValueError, match=f"missing column '{column}'"):
        chart(frame().drop(columns=column))


def test_heatmap_missing_value_column_and_empty_input():
    with pytest.raises(ValueError, match="missing column 'gain'"):
        heatmap_chart(heat_frame(), "threshold_a", "threshold_b", "gain", "t", "v")
    with pytest.raises(ValueError, match="no rows"):
        undercut_chart(undercut_frame().iloc[:0])


def test_save_figure_writes_png_and_svg(tmp_path):
    fig = hand_length_chart(hand_length_frame())
    paths = save_figure(fig, tmp_path / "sub" / "turns", formats=("png", "svg"))
    assert [p.name for p in paths] == ["turns.png", "turns.svg"]
    assert paths[0].read_bytes().startswith(PNG_SIGNATURE)
    height, width = png_shape(paths[0].read_bytes())[:2]
    assert (width, height) == (756, 546)                         # 5.4 x 3.9 in at 140 dpi
    assert paths[1].read_text().lstrip().startswith("<?xml") and "<svg" in paths[1].read_text()
    assert not [p for p in (tmp_path / "sub").iterdir() if p.name.startswith(".")]
    with pytest.raises(ValueError, match="formats"):
        save_figure(fig, tmp_path / "x", formats=("jpg",))


# ---------------------------------------------------------------- report builder

class TagCollector(HTMLParser):
    """Counts start/end tags and keeps img attributes, h2 texts and table row counts."""

    def __init__(self) -> None:
        super().__init__()
        self.starts: dict[str, int] = {}
        self.ends: dict[str, int] = {}
        self.images: list[dict[str, str]] = []
        self.h2: list[str] = []
        self.table_rows: list[int] = []
        self._in_h2 = False
        self._in_tbody = False

    def handle_starttag(self, tag, attrs):
        self.starts[tag] = self.starts.get(tag, 0) + 1
        if tag == "img":
            self.images.append(dict(attrs))
        elif tag == "h2":
            self._in_h2 = True
            self.h2.append("")
        elif tag == "table":
            self.table_rows.append(0)
        elif tag == "tbody":
            self._in_tbody = True
        elif tag == "tr" and self._in_tbody:
            self.table_rows[-1] += 1

    def handle_endtag(self, tag):
        self.ends[tag] = self.ends.get(tag, 0) + 1
        self._in_h2 = self._in_h2 and tag != "h2"
        self._in_tbody = self._in_tbody and tag != "tbody"

    def handle_data(self, data):
        if self._in_h2:
            self.h2[-1] += data


def sample_spec() -> ReportSpec:
    table_a = pd.DataFrame({"deadwood": [1, 2, 3], "rate": [0.0512, 0.0734, 0.1],
                            "n": [1200, 1500, 20000]})
    table_b = pd.DataFrame({"variant": ["classic", "modern|x"], "gin": [0.2, np.nan]})
    return ReportSpec(
        title="When to knock <vs> simple",
        subtitle="10,000 hands, seed 1",
        answer="Knock at deadwood 1-6 against `simple`; wait otherwise.",
        sections=[
            Section("Undercuts", "Undercuts grow with `deadwood`.\n\nSecond paragraph & more.",
                    figure=undercut_chart(undercut_frame()), figure_name="undercut",
                    table=table_a, table_name="undercut_rates"),
            Section("Thresholds", "Best threshold per opponent.",
                    figure=threshold_chart(threshold_frame()), figure_name="thresholds"),
            Section("Variants", "Gin rates by rules.", table=table_b, table_name="variants"),
        ],
        methods={"Simulation": "`ginsim simulate` with seed 1.", "Intervals": "Wilson 95%."},
    )


def test_build_report_writes_a_self_contained_html_page(tmp_path):
    spec = sample_spec()
    paths = build_report(spec, tmp_path)
    assert set(paths) == {"report.html", "report.md", "undercut.png", "thresholds.png",
                          "undercut_rates.csv", "variants.csv"}
    assert all(p.exists() and p.parent == tmp_path for p in paths.values())
    html = paths["report.html"].read_text(encoding="utf-8")
    for forbidden in ("http://", "https://", 'src="//', "<link", "<script"):
        assert forbidden not in html
    tags = TagCollector()
    tags.feed(html)
    tags.close()
    for tag in ("html", "head", "body", "style", "title", "main"):
        assert tags.starts.get(tag) == 1 and tags.ends.get(tag) == 1, tag
    for tag in ("section", "h2", "table", "p", "dl", "figure"):
        assert tags.starts.get(tag) == tags.ends.get(tag), tag
    assert tags.h2 == ["Answer", "Undercuts", "Thresholds", "Variants", "Methods"]
    assert html.index('id="answer"') < html.index("<h2>Undercuts</h2>")
    answer_at = html.index('Knock at deadwood <span class="nb">1-6</span>')
    assert answer_at < html.index("<h2>Undercuts</h2>")
    assert "<code>simple</code>" in html and "<code>deadwood</code>" in html
    assert "When to knock &lt;vs&gt; simple" in html                      # autoescaped
    assert tags.starts["dt"] == 2 and tags.starts["dd"] == 2
    assert len(tags.images) == 2
    for image in tags.images:
        assert image["alt"].strip()
        assert image["src"].startswith("data:image/png;base64,")
        data = base64.b64decode(image["src"].split(",", 1)[1], validate=True)
        assert data.startswith(PNG_SIGNATURE)
        height, width = png_shape(data)[:2]
        assert width > 300 and height > 200
    assert "Undercut rate by knocker deadwood" in tags.images[0]["alt"]
    assert tags.table_rows == [3, 2]
    assert "20,000" in html and "5.1%" in html and "modern|x" in html
    assert "<th>Deadwood</th>" in html and "<th>Rate</th>" in html and "<details>" not in html


def test_build_report_markdown_csv_and_rerun(tmp_path):
    spec = sample_spec()
    first = build_report(spec, tmp_path, svg=True)
    assert {"undercut.svg", "thresholds.svg"} <= set(first)
    md = first["report.md"].read_text(encoding="utf-8")
    assert md.startswith("# When to knock <vs> simple\n")
    assert md.split("\n\n")[1] == ("**Answer.** Knock at deadwood 1-6 against `simple`; "
                                    "wait otherwise.")
    images = re.findall(r"!\[([^\]]+)\]\(([^)]+)\)", md)
    assert [src for _, src in images] == ["undercut.png", "thresholds.png"]
    for _, src in images:
        assert (tmp_path / src).read_bytes().startswith(PNG_SIGNATURE)
    assert "| Deadwood | Rate | Hands |\n| ---: | ---: | ---: |\n| 1 | 5.1% | 1,200 |" in md
    assert "| modern\\|x | – |" in md
    assert "- **Simulation**: `ginsim simulate` with seed 1." in md
    for section in spec.sections:
        if section.table is not None:
            back = pd.read_csv(tmp_path / f"{section.table_name}.csv")
            pd.testing.assert_frame_equal(back, section.csv_table(), check_dtype=False)
    (tmp_path / "stale_chart.png").write_bytes(b"old")                # an earlier file
    again = build_report(spec, tmp_path)                               # replaced whole
    assert again["report.md"].read_text(encoding="utf-8") == md
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(again)
    assert not [p for p in tmp_path.parent.iterdir() if p.name.startswith(f".{tmp_path.name}.")]


@pytest.mark.parametrize(("section", "message"), [
    (Section("A", "t", figure=Figure()), "has a figure but no figure_name"),
    (Section("A", "t", figure_name="x"), "has a figure_name but no figure"),
    (Section("A", "t", table=pd.DataFrame({"a": [1]}), table_name="bad name"), "table_name"),
    (Section("A", "t", table=[1, 2], table_name="t"), "not a DataFrame"),
    (Section("", "t"), "no title"),
])
def test_bad_sections_raise_one_line_value_errors(tmp_path, section, message):
    spec = ReportSpec("T", "answer", [section], {})
    with pytest.raises(ValueError, match=message) as error:
        build_report(spec, tmp_path)
    assert "\n" not in str(error.value)
    assert not (tmp_path / "report.html").exists()


def test_duplicate_names_raise(tmp_path):
    table = pd.DataFrame({"a": [1]})
    spec = ReportSpec("T", "a", [Section("A", "t", table=table, table_name="x"),
                                 Section("B", "t", table=table, table_name="x")], {})
    with pytest.raises(ValueError, match="duplicate table_name 'x'"):
        build_report(spec, tmp_path)


def test_markdown_table_formats_numbers_and_escapes_pipes():
    table = pd.DataFrame({"name": ["a|b", "c", "d"], "value": [1234.5, 0.000123, 1.92e-05],
                          "k": [3, 40_000, 7]})
    assert markdown_table(table).splitlines() == [
        "| name | value | k |",
        "| --- | ---: | ---: |",
        "| a\\|b | 1,234 | 3 |",
        "| c | 0.0001 | 40,000 |",
        "| d | &lt;0.0001 | 7 |",
    ]


def test_template_ships_inside_the_package():
    import ginsim.reports

    template = Path(ginsim.reports.__file__).with_name("templates") / "report.html.j2"
    assert template.is_file() and "{{ answer }}" in template.read_text()


# ---------------------------------------------------------------- tables for people

def test_people_table_headers_percent_points_intervals_and_dashes():
    from ginsim.reports.text import people_table

    frame = pd.DataFrame({"deadwood": [1, 2, 3], "rate": [0.123, 0.005, np.nan],
                          "low": [0.119, 0.001, np.nan], "high": [0.127, 0.0104, np.nan],
                          "n": [100, 2000, 0], "undercut_rate": [0.25, np.nan, 0.0]})
    shown = people_table(frame)
    assert list(shown.columns) == ["Deadwood", "Rate (95% CI)", "n",
                                   "Own knocks undercut"]
    assert shown.iloc[0].tolist() == ["1", "12.3% (11.9–12.7)", "100", "25.0%"]
    assert shown.iloc[1].tolist() == ["2", "0.50% (0.10–1.04)", "2,000", "–"]
    assert shown.iloc[2, 1] == "–"
    games = pd.DataFrame({"statistic": ["p_a_wins_game", "mean_margin_a"],
                          "value": [0.6, -12.345], "low": [0.58, np.nan],
                          "high": [0.62, np.nan], "n": [10, 1]})
    shown = people_table(games)
    assert shown.iloc[0].tolist() == ["Win probability (player a)", "60.0% (58.0–62.0)", "10"]
    assert shown.iloc[1, 1] == "−12.35 (n/a)"


def test_long_tables_fold_and_csv_rounds_to_what_it_carries(tmp_path):
    """The page shows two decimals; the CSV keeps six (float noise such as 1e-19 and
    negative zeros are written 0) and names what ``n`` counts."""
    table = pd.DataFrame({"deadwood": range(25), "mean": np.linspace(-1, 1, 25) / 3,
                          "n": 7})
    table.loc[12, "mean"] = -1.0842021724855044e-19
    spec = ReportSpec("T", "a", [Section("Long", "t", table=table, table_name="long")])
    paths = build_report(spec, tmp_path)
    html = paths["report.html"].read_text(encoding="utf-8")
    assert "<details>" in html and "<summary>Table: 25 rows</summary>" in html
    assert "+0.33" in html and "0.3333" not in html
    back = pd.read_csv(paths["long.csv"])
    assert back["mean"].iloc[-1] == 0.333333 and list(back.columns) == ["deadwood", "mean",
                                                                        "hands"]
    text = paths["long.csv"].read_text()
    assert "e-19" not in text and "\n12,0.0," in text and "-0.0," not in text
    assert not re.search(r"\d[eE][-+]?\d", paths["report.md"].read_text(encoding="utf-8"))


def test_report_dir_refuses_files_and_foreign_directories(tmp_path):
    spec = ReportSpec("T", "a", [Section("S", "t", table=pd.DataFrame({"a": [1]}),
                                         table_name="x")])
    target = tmp_path / "file"
    target.write_text("keep")
    with pytest.raises(ValueError, match="is a file"):
        build_report(spec, target)
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep")
    with pytest.raises(ValueError, match="not a ginsim report"):
        build_report(spec, foreign)
    assert target.read_text() == "keep" and (foreign / "notes.txt").read_text() == "keep"
    report = tmp_path / "report"
    build_report(spec, report)
    (report / "notes.txt").write_text("added by hand")
    with pytest.raises(ValueError, match="not a ginsim report"):
        build_report(spec, report)


# ---------------------------------------------------------------- chart details

def test_heatmap_greys_and_hatches_thin_cells_shows_n_and_keeps_numbers_above_hatching():
    """A cell under min_n is grey, cross-hatched (and no colour), its number boxed like
    the unclear cells'; the caption calls it too few."""
    df = heat_frame()
    df.loc[(df.threshold_a == 4) & (df.threshold_b == 0), ["points", "n"]] = [50.0, 7]
    fig = heatmap_chart(df, "threshold_a", "threshold_b", "points", "t", "v", diverging=True,
                        min_n=30, show_n=True)
    ax = fig.axes[0]
    grid = ax.get_images()[0].get_array()
    assert grid.mask[0, 4] and grid.mask.sum() == 2                  # thin cell and NaN cell
    assert ax.get_images()[0].norm.vmax == pytest.approx(1.5)         # set by cells n >= 30
    texts = {t.get_text() for t in ax.texts}
    assert "50.0\n7" in texts and "1.5\n100" in texts
    boxed = [t for t in ax.texts if t.get_bbox_patch() is not None]
    thin = (df.n < 30) & df.points.notna()
    assert len(boxed) == int((((df.verdict == "unclear") & (df.n >= 30)
                               & df.points.notna()) | thin).sum())
    assert all(t.get_zorder() > 2 for t in boxed)
    few = [p for p in ax.patches if p.get_gid() == "too-few"]
    assert [(p.get_x() + 0.5, p.get_y() + 0.5) for p in few] == [(4.0, 0.0)]
    assert few[0].get_hatch() == "xxx"
    assert "grey, cross-hatched: too few (under 30 hands" in " ".join(caption(fig).split())


def test_tables_call_rows_under_min_n_too_few():
    """A row with fewer than min_n in ``n`` reads "too few": in its verdict where the
    table has one, else before its value; rows at min_n and tables without it as
    before."""
    from ginsim.reports.text import people_table

    rates = pd.DataFrame({"deadwood": [1, 2], "n": [29, 30], "rate": [0.1, 0.2],
                          "low": [0.05, 0.15], "high": [0.2, 0.25]})
    shown = people_table(rates, min_n=30)
    assert shown["Rate (95% CI)"].tolist() == ["too few: 10.0% (5.0–20.0)",
                                               "20.0% (15.0–25.0)"]
    assert people_table(rates)["Rate (95% CI)"].tolist()[0] == "10.0% (5.0–20.0)"
    gains = rates.rename(columns={"rate": "gain"}).assign(verdict=["wait", "knock"])
    shown = people_table(gains, min_n=30)
    assert shown["Verdict"].tolist() == ["too few", "knock"]


def test_undercut_chart_hatches_deadwood_with_too_few_knocks():
    """A deadwood with fewer than min_n knocks is cross-hatched across the plot, its
    marker hollow, and the caption says so; without min_n nothing is."""
    df = undercut_frame(series=False)
    df.loc[df.deadwood == df.deadwood.max(), "n"] = 12
    fig = undercut_chart(df, min_n=30)
    ax = fig.axes[0]
    few = [p for p in ax.patches if p.get_gid() == "too-few"]
    assert len(few) == 1 and few[0].get_hatch() == "xxx"
    assert "too few (under 30 knocks)" in " ".join(caption(fig).split())
    plain = undercut_chart(df)
    assert not [p for p in plain.axes[0].patches if p.get_gid() == "too-few"]
    assert "too few" not in caption(plain)


def test_categorical_stock_keeps_play_order():
    order = ["24-31", "16-23", "8-15", "0-7"]
    df = pd.DataFrame({"stock": pd.Categorical(["0-7", "8-15", "24-31", "16-23"], order,
                                               ordered=True),
                       "deadwood": [1, 1, 1, 1], "rate": [0.4, 0.3, 0.1, 0.2]})
    fig = heatmap_chart(df, "stock", "deadwood", "rate", "t", "v")
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == order


def test_knock_card_chart_marks_cells_in_play_order():
    """A plan that ignores pile takes fills all three panels alike; deadwood 1 is the top
    row of each, as in every grid of the report."""
    from ginsim.analysis.knock.knock_card import threshold_card
    from ginsim.reports.card_chart import knock_card_chart

    card = threshold_card([10, 10, 7, 7, 5, 5, 0, 0], knock_limit=10)
    fig = knock_card_chart(card, title="Knock card", caption="rules: modern")
    assert len(fig.axes) == 3
    for ax in fig.axes:
        assert [t.get_text() for t in ax.get_xticklabels()][:2] == ["28-31", "24-27"]
        assert [t.get_text() for t in ax.get_yticklabels()][:2] == ["1", "2"]
        assert ax.get_ylim()[0] > ax.get_ylim()[1]  # row 0 (deadwood 1) at the top
        marks = [t.get_text() for t in ax.texts]
        assert marks.count("KNOCK") == 10 + 10 + 7 + 7 + 5 + 5
        assert marks.count("wait") == 8 * 10 - marks.count("KNOCK")
    assert "rules: modern" in caption(fig)
    assert figure_bytes_ok(fig)


def figure_bytes_ok(fig: Figure) -> bool:
    from ginsim.reports import figure_bytes

    return png_shape(figure_bytes(fig))[0] > 100 and b"<svg" in figure_bytes(fig, "svg")


def test_crowded_outcome_labels_and_long_captions_stay_apart():
    rows = [(f"strategy{i} vs opponent{j}", o, 0.2, 0.19, 0.21, 1000)
            for i in range(6) for j in range(2) for o in ("knock", "gin", "undercut")]
    df = pd.DataFrame(rows, columns=["label", "outcome", "rate", "low", "high", "n"])
    fig = outcome_mix_chart(df)
    from ginsim.reports.style import append_caption

    append_caption(fig, "rules: modern; " + "a long note " * 12)
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in fig.axes[0].get_xticklabels()]
    for left, right in zip(boxes, boxes[1:], strict=False):
        assert not left.overlaps(right)
    cap = next(t for t in fig.texts if t.get_gid() == "caption")
    box = cap.get_window_extent(renderer)
    assert box.x1 <= fig.bbox.x1 and box.y0 >= 0 and "\n" in cap.get_text()
    assert all(not box.overlaps(b) for b in boxes)
