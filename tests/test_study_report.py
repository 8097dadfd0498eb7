"""A real report on a small run: the HTML parses, every image decodes, every table has
rows, nothing points outside the file."""

import base64
import io
import re
from html.parser import HTMLParser

import matplotlib.image as mpimg
import pandas as pd
import pytest

from ginsim.analysis.studies import knock_study, strategies_study, variants_study
from ginsim.reports.study_report import write_report


class Collector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[str] = []
        self.images: list[str] = []
        self.rows_per_table: list[int] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "img":
            self.images.append(dict(attrs)["src"])
        if tag == "table":
            self.rows_per_table.append(0)
        if tag == "tr" and self.rows_per_table:
            self.rows_per_table[-1] += 1


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    results = [
        knock_study(hands=4000, seed=3, opponents=("simple",), thresholds=(0, 4, 8, 10)),
        strategies_study(hands=2000, seed=3, strategies=("simple", "memory2"),
                         opponents=("simple",)),
        variants_study(hands=2000, seed=3, variants=("modern", "oklahoma"), games=300),
    ]
    write_report(results, out)
    return out, results


def test_html_is_self_contained_and_complete(report_dir):
    out, results = report_dir
    html = (out / "report.html").read_text()
    parser = Collector()
    parser.feed(html)
    assert parser.tags.count("html") == 1 and parser.tags.count("h2") >= 8
    assert len(parser.images) >= 8
    for src in parser.images:
        assert src.startswith("data:image/png;base64,")
        data = base64.b64decode(src.split(",", 1)[1])
        image = mpimg.imread(io.BytesIO(data), format="png")
        assert image.shape[0] > 200 and image.shape[1] > 300
    assert parser.rows_per_table and min(parser.rows_per_table) >= 2  # header + data
    assert not re.search(r"https?://|src=\"//|<link|<script", html)
    assert results[0].answer.split("`")[0] in html


def test_markdown_csv_and_pngs(report_dir):
    out, results = report_dir
    md = (out / "report.md").read_text()
    for name in re.findall(r"\]\(([^)]+\.png)\)", md):
        assert (out / name).stat().st_size > 1000
    sweep = pd.read_csv(out / "threshold_sweep.csv")
    assert len(sweep) == 4 and {"threshold", "opponent", "mean", "low", "high"} <= set(sweep)
    for csv in out.glob("*.csv"):
        assert len(pd.read_csv(csv)) > 0
    assert "Methods" in md and "seed" in md
