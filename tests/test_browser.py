"""A real report opened in headless Chromium (Debian's ``chromium``, installed by .ci/run):
the answer is on the first screen, every image decodes with a non-zero size, nothing is
wider than the page, no table hides columns in a scroller, no word is broken across
lines and the knock card's text is legible, in a desktop window (1280 px), the
narrowest window headless Chromium opens (500 px) and a phone's 420 px (the report in
an iframe of that width: the page's own viewport is then 420 px wide). At 420 px no two
of the knock card's labels touch, its text and every chart's smallest text render at
9 px or more, and no table header breaks inside a bracket.

The browser is driven by its own command line: ``--dump-dom`` of a copy of the report
with a small probe script (the report itself has no script), and ``--screenshot``.
"""

from __future__ import annotations

import base64
import json
import re
import struct
import subprocess
from pathlib import Path

import matplotlib.image as mpimg
import pytest
from browser_check import chromium

from ginsim.analysis.studies import knock_study
from ginsim.reports.study_report import write_report
from ginsim.reports.style import SMALLEST_TEXT_KEY

WINDOWS = {"desktop": (1280, 900), "narrow": (500, 844)}  # 500: headless Chromium's least
PHONE = (420, 844)  # a phone: the report in an iframe this wide, in a 500 px window

PROBE = r"""
<script>
window.addEventListener("load", () => {
  const answer = document.getElementById("answer");
  const box = answer.getBoundingClientRect();
  const style = getComputedStyle(answer);
  const images = [...document.images].map(img => ({
    ok: img.complete && img.naturalWidth > 0 && img.naturalHeight > 0,
    width: img.naturalWidth, height: img.naturalHeight,
    shown: img.getBoundingClientRect().width}));
  const page = document.documentElement;
  const wide = [...document.body.querySelectorAll("*")]
    .filter(el => !el.closest(".table-wrap") && !el.closest("details:not([open])"))
    .filter(el => el.getBoundingClientRect().right > page.clientWidth + 0.5)
    .map(el => el.tagName + "." + el.className);
  const scrollers = [...document.querySelectorAll(".table-wrap, .card-wrap")]
    .filter(el => el.scrollWidth > el.clientWidth + 0.5)
    .map(el => el.className + ":" + el.scrollWidth + ">" + el.clientWidth + ":" +
         (el.querySelector("th, td") || el).textContent.slice(0, 30));
  const broken = [];
  const walker = document.createTreeWalker(document.querySelector("main"),
                                           NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest("details:not([open])")) continue;
    for (const m of node.textContent.matchAll(/\S+/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
                           .map(r => Math.round(r.top)));
      if (tops.size > 1) broken.push(m[0]);
    }
  }
  const cardFonts = [...document.querySelectorAll("table.card-grid td")]
    .map(td => parseFloat(getComputedStyle(td).fontSize));
  const result = {
    scrollers: scrollers, broken: broken.slice(0, 20),
    cardFont: cardFonts.length ? Math.min(...cardFonts) : 0,
    answerTop: box.top, answerBottom: box.bottom, answerHeight: box.height,
    viewport: window.innerHeight, visible: style.display !== "none" &&
      style.visibility !== "hidden" && Number(style.opacity) > 0,
    answerText: answer.innerText, images: images,
    scrollWidth: page.scrollWidth, clientWidth: page.clientWidth, wide: wide};
  // Card labels: the text of each cell's action and n, and of each header, measured
  // as glyph boxes (a Range), so a label running into its neighbour is caught.
  const glyphs = el => { const r = document.createRange(); r.selectNodeContents(el);
                         return r.getBoundingClientRect(); };
  const touching = [];
  for (const row of document.querySelectorAll("table.card-grid tr")) {
    for (const sel of [":scope > th", ":scope > td .act", ":scope > td .n"]) {
      const boxes = [...row.querySelectorAll(sel)].map(el => [el.textContent, glyphs(el)])
        .filter(([, b]) => b.width > 0);
      for (let i = 1; i < boxes.length; i++) {
        const gap = boxes[i][1].left - boxes[i - 1][1].right;
        if (gap < 2) touching.push(boxes[i - 1][0] + "|" + boxes[i][0] + ":" + gap.toFixed(1));
      }
    }
    for (const td of row.querySelectorAll("td")) {
      const act = td.querySelector(".act"), n = td.querySelector(".n");
      if (act && n && glyphs(n).top < glyphs(act).bottom) touching.push(td.textContent);
    }
  }
  result.touching = touching.slice(0, 20);
  // The nearest two labels of a card row come (glyph box to glyph box), and the
  // smallest computed font size of the card's labels and headers.
  let nearest = Infinity;
  for (const row of document.querySelectorAll("table.card-grid tbody tr")) {
    const boxes = [...row.querySelectorAll("td .act")].map(glyphs);
    for (let i = 1; i < boxes.length; i++)
      nearest = Math.min(nearest, boxes[i].left - boxes[i - 1].right);
  }
  result.cardGap = nearest;
  result.cardText = Math.min(...[...document.querySelectorAll(
    "table.card-grid td .act, table.card-grid td .n, table.card-grid th")]
    .filter(el => el.textContent.trim())
    .map(el => parseFloat(getComputedStyle(el).fontSize)));
  // A bracket in a table header or card header that the page breaks across lines.
  const split = [];
  for (const th of document.querySelectorAll("th")) {
    if (th.closest("details:not([open])") || !th.getClientRects().length) continue;
    const texts = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let node = texts.nextNode(); node; node = texts.nextNode()) {
      for (const m of node.textContent.matchAll(/\([^()]*\)/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
                             .map(r => Math.round(r.top)));
        if (tops.size > 1) split.push(th.textContent);
      }
    }
  }
  result.splitBrackets = split;
  result.brackets = [...document.querySelectorAll("th")]
    .filter(th => /\(/.test(th.textContent) && th.getClientRects().length).length;
  result.cardLabels = document.querySelectorAll("table.card-grid td .act").length;
  // The section on the score: its blocks one under the other, nothing past the page.
  const score = document.getElementById("game-score");
  if (score) {
    const blocks = [...score.children].filter(el => el.getClientRects().length)
      .map(el => el.getBoundingClientRect());
    const img = score.querySelector("img");
    result.gameScore = {
      overlaps: blocks.slice(1).filter((b, i) => b.top < blocks[i].bottom - 0.5).length,
      right: score.getBoundingClientRect().right,
      wide: [...score.querySelectorAll("*")]
        .filter(el => el.getBoundingClientRect().right > page.clientWidth + 0.5)
        .map(el => el.tagName),
      scrollers: [...score.querySelectorAll(".table-wrap")]
        .filter(el => el.scrollWidth > el.clientWidth + 0.5).length,
      image: img ? {shown: img.getBoundingClientRect().width, width: img.naturalWidth} : null,
      text: score.innerText};
  }
  // Every image, the closed ones opened, as shown: its natural and rendered width.
  document.querySelectorAll("details").forEach(d => { d.open = true; });
  result.opened = [...document.images].map(img => ({
    width: img.naturalWidth, shown: img.getBoundingClientRect().width}));
  const host = window.parent !== window ? window.parent.document : document;
  const out = host.createElement("pre");
  out.id = "probe-result";
  out.textContent = JSON.stringify(result);
  host.body.appendChild(out);
});
</script>
"""
PHONE_HOST = """<!DOCTYPE html><html><body style="margin:0">
<iframe src="probe.html" style="width:{width}px;height:{height}px;border:0"></iframe>
</body></html>"""


@pytest.fixture(scope="module", autouse=True)
def browser() -> str:
    """Checked before the report is built, so a machine without Chromium skips at once."""
    return chromium()


def run_browser(*args: str) -> str:
    proc = subprocess.run([chromium(), "--headless", "--no-sandbox", "--disable-gpu",
                           "--hide-scrollbars", "--disable-dev-shm-usage", *args],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("browser") / "report"
    result = knock_study(hands=2000, seed=5, opponents=("simple",), thresholds=(0, 5, 10))
    write_report([result], out)
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "<script" not in html
    (out / "probe.html").write_text(html.replace("</body>", PROBE + "</body>"),
                                    encoding="utf-8")
    (out / "phone.html").write_text(PHONE_HOST.format(width=PHONE[0], height=PHONE[1]),
                                    encoding="utf-8")
    return out


def probe(report: Path, page: str, width: int, height: int) -> dict:
    """The probe's findings for ``page`` (probe.html, or phone.html holding it in a
    phone-wide iframe) opened in a ``width`` x ``height`` window."""
    dom = run_browser(f"--window-size={width},{height}", "--virtual-time-budget=10000",
                      "--allow-file-access-from-files", "--dump-dom",
                      (report / page).as_uri())
    found = re.search(r'<pre id="probe-result">(.*?)</pre>', dom, re.S)
    assert found, "the probe script did not run"
    return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&")
                      .replace("&lt;", "<").replace("&gt;", ">"))


@pytest.mark.parametrize("window", [*sorted(WINDOWS), "phone"])
def test_answer_on_first_screen_images_decode_nothing_overflows(report, window):
    if window == "phone":
        width, height = PHONE
        result = probe(report, "phone.html", WINDOWS["narrow"][0], PHONE[1])
    else:
        width, height = WINDOWS[window]
        result = probe(report, "probe.html", width, height)
    assert result["clientWidth"] == width or window != "phone", result["clientWidth"]
    assert result["broken"] == [], result["broken"]
    assert result["scrollers"] == []
    assert result["cardFont"] >= 9, result["cardFont"]
    assert result["splitBrackets"] == [], result["splitBrackets"]
    assert result["brackets"] > 0 or window != "desktop"  # narrow pages show no header
    assert result["visible"] and result["answerHeight"] > 20
    assert 0 <= result["answerTop"] and result["answerBottom"] <= result["viewport"]
    assert "points per hand" in result["answerText"]
    assert len(result["images"]) >= 8
    for image in result["images"]:
        assert image["ok"] and image["width"] > 100 and image["height"] > 100, image
        assert 0 < image["shown"] <= result["clientWidth"]
    assert result["clientWidth"] <= width
    assert result["scrollWidth"] <= result["clientWidth"], result["wide"][:5]
    assert result["wide"] == []


def png_dpi(data: bytes) -> float:
    """A PNG's pixels per inch, from its pHYs chunk (matplotlib writes the dpi there)."""
    at = data.index(b"pHYs")
    per_metre = struct.unpack(">I", data[at + 4:at + 8])[0]
    return per_metre * 0.0254


def png_text(data: bytes) -> dict[str, str]:
    """A PNG's tEXt chunks, read chunk by chunk from the file's bytes."""
    found, at = {}, 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"tEXt":
            key, _, value = data[at + 8:at + 8 + length].partition(b"\0")
            found[key.decode("latin-1")] = value.decode("latin-1")
        at += 12 + length
    return found


def test_phone_card_labels_apart_and_chart_text_legible(report):
    """At 420 px no two labels of the knock card (actions, sample sizes, headers) touch
    or overlap and KNOCK labels keep 4 px apart, every card label and header is at
    least 9 px, and every image, the folded ones opened, is shown across the page at a
    scale that keeps its smallest text (the points each PNG records at its dpi) at
    least 9 CSS px."""
    result = probe(report, "phone.html", WINDOWS["narrow"][0], PHONE[1])
    assert result["clientWidth"] == PHONE[0]
    assert result["cardLabels"] == 3 * 10 * 8 and result["touching"] == []
    assert result["cardGap"] >= 4, result["cardGap"]
    assert result["cardText"] >= 9, result["cardText"]
    html = (report / "report.html").read_text(encoding="utf-8")
    sources = re.findall(r'src="data:image/png;base64,([^"]+)"', html)
    assert len(sources) == len(result["opened"]) >= 8
    for source, image in zip(sources, result["opened"], strict=True):
        data = base64.b64decode(source)
        points = float(png_text(data)[SMALLEST_TEXT_KEY])
        smallest = points * png_dpi(data) / 72 * image["shown"] / image["width"]
        assert image["shown"] >= 0.9 * (PHONE[0] - 32), image  # spans the page
        assert points > 0 and smallest >= 9, (smallest, points, image)


def test_screenshots_of_the_first_screen(report):
    for window, (width, height) in WINDOWS.items():
        shot = report / f"screen_{window}.png"
        run_browser(f"--window-size={width},{height}", f"--screenshot={shot}",
                    (report / "report.html").as_uri())
        pixels = mpimg.imread(shot)
        assert pixels.shape[:2] == (height, width)
        assert pixels[..., :3].std() > 0.05            # not a blank page


@pytest.mark.parametrize("window", ["desktop", "phone"])
def test_game_score_section_fits_the_page_without_overlap(report, window):
    """The section on the score (``id="game-score"``) at 1280 px and at a phone's 420 px:
    its heat map shown across the column, its blocks (paragraphs, figure, table) one
    under the other, nothing wider than the page and no table in a scroller."""
    if window == "phone":
        result = probe(report, "phone.html", WINDOWS["narrow"][0], PHONE[1])
        width = PHONE[0]
    else:
        result = probe(report, "probe.html", *WINDOWS["desktop"])
        width = WINDOWS["desktop"][0]
    score = result.get("gameScore")
    assert score, "no section with id game-score"
    assert result["clientWidth"] == width
    assert score["overlaps"] == 0 and score["wide"] == [] and score["scrollers"] == 0
    assert score["right"] <= result["clientWidth"] + 0.5
    assert score["image"] and score["image"]["shown"] >= min(0.9 * (width - 32), 600)
    for words in ("At 85–30 up", "Behind 30–85", "What it is worth"):
        assert words in score["text"], words
