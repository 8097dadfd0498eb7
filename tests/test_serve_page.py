"""``ginsim serve``'s page in a real browser (Debian's chromium driven by Playwright), on
a real server: a whole game against ``simple`` played by clicks on the controls' names
(cards by code, Stock, Pile, Take, Pass, Knock, Gin, Next hand, New game, the Bot select,
the Hints checkbox), the aria-live region saying every change, and the layout at 420 and
1280 px: no horizontal scroll, no two pieces of text overlapping, no word broken across
lines. Screenshots go to
``$GINSIM_SHOTS`` when it is set (the closing note's), else to the test's folder."""

from __future__ import annotations

import os
from itertools import pairwise
from pathlib import Path

import pytest
from browser_check import CHROMIUM_ARGS, NO_PLAYWRIGHT, chromium, missing
from script_modules import load_script

from ginsim.table.records.record_reader import read_record

WIDTHS = (420, 1280)
TARGET = 100  # a whole game to modern's target
REVIEW_ROLLOUTS = 100  # a quick review: the page's drawing is tested, not the review

#: The page's layout, measured in the page: how wide the document is against the window,
#: and every pair of visible text boxes (one per text node line) that overlap.
LAYOUT = r"""() => {
  const boxes = [], broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    const parent = node.parentElement;
    if (!parent || parent.closest("[hidden], .visually-hidden, details:not([open]) > p"))
      continue;
    const style = getComputedStyle(parent);
    if (style.visibility === "hidden" || style.display === "none") continue;
    if (!parent.closest("#record"))  // a file's path may break anywhere; words may not
      for (const m of node.textContent.matchAll(/[^\s-]+/g)) {  // a hyphen may end a line
        const word = document.createRange();
        word.setStart(node, m.index);
        word.setEnd(node, m.index + m[0].length);
        const tops = new Set([...word.getClientRects()].filter(r => r.width > 0)
                             .map(r => Math.round(r.top)));
        if (tops.size > 1) broken.push(m[0]);
      }
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      if (r.width > 0.5 && r.height > 0.5)
        boxes.push({text: node.textContent.trim().slice(0, 30), l: r.left, r: r.right,
                    t: r.top, b: r.bottom, n: node});
    }
  }
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      if (a.n === b.n) continue;
      const w = Math.min(a.r, b.r) - Math.max(a.l, b.l);
      const h = Math.min(a.b, b.b) - Math.max(a.t, b.t);
      if (w > 1 && h > 1) overlaps.push(a.text + " / " + b.text);
    }
  const page = document.documentElement;
  return {scrollWidth: page.scrollWidth, clientWidth: page.clientWidth,
          bodyScroll: document.body.scrollWidth, texts: boxes.length,
          overlaps: overlaps.slice(0, 10), broken: broken.slice(0, 10)};
}"""




@pytest.fixture(scope="module")
def server(tmp_path_factory):
    chromium()  # skipped (failed under CI) before a server starts
    with load_script("serve_load").ServerThread(tmp_path_factory.mktemp("records"),
                                                review_rollouts=REVIEW_ROLLOUTS) as s:
        yield s


@pytest.fixture(scope="module")
def browser(server):
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing(NO_PLAYWRIGHT)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, server):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url)
    page.wait_for_function("document.getElementById('bot').options.length > 0")
    yield page
    page.close()
    assert not errors, f"the page's script failed: {errors}"


def shots() -> Path | None:
    folder = os.environ.get("GINSIM_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
    return Path(folder) if folder else None


def check_layout(page, name: str, tmp_path: Path) -> None:
    """At each width: a screenshot, no horizontal scroll, no overlapping text."""
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(300)
        found = page.evaluate(LAYOUT)
        folder = shots() or tmp_path
        page.screenshot(path=str(folder / f"serve-{name}-{width}.png"), full_page=True)
        assert found["scrollWidth"] <= found["clientWidth"], (width, found)
        assert found["texts"] > 20, found
        assert not found["overlaps"], (width, found["overlaps"])
        assert not found["broken"], (width, found["broken"])  # no word split over lines


def start(page, bot: str = "simple", hints: bool = False, target: int = TARGET) -> None:
    page.get_by_role("combobox", name="Bot").select_option(bot)
    page.get_by_role("spinbutton", name="Target").fill(str(target))
    hints_box = page.get_by_role("checkbox", name="Hints")
    hints_box.set_checked(hints)
    page.get_by_role("button", name="New game").click()
    your_turn(page, None)


def your_turn(page, version: int | None) -> dict:
    """The state once it is yours to act (or the hand is over) and newer than
    ``version``."""
    page.wait_for_function(
        "v => { const s = window.ginsim.state; return s && s.version !== v && "
        "!s.bot_to_move; }", arg=version, timeout=60_000)
    return page.evaluate("window.ginsim.state")


def click_move(page, state: dict) -> None:
    """One move by clicks, as a simple player: gin, knock, pass the upcard, the stock,
    the highest loose card."""
    button = lambda name: page.get_by_role("button", name=name, exact=True)  # noqa: E731
    moves = state["moves"]
    if state["hand_over"]:
        button("Next hand").click()
    elif moves["gin"]:
        button("Gin").click()
    elif moves["knock"]:
        button("Knock").click()
        assert button("Knock").get_attribute("aria-pressed") == "true"
        button(moves["knock"][0]).click()
    elif "pass" in moves["buttons"]:
        button("Pass").click()
    elif "stock" in moves["buttons"]:
        button("Stock").click()
    else:
        loose = [c for c in state["table"]["loose"] if c in moves["discard"]]
        button((loose or moves["discard"])[-1]).click()


def play_to_the_end(page, state: dict, tmp_path: Path | None = None
                    ) -> tuple[dict, list[str]]:
    """Click moves until the game is over: its last state and what the live region said
    at each turn (each hand's end checked; the first one's layout with ``tmp_path``)."""
    said, hands = [], 0
    for _ in range(2000):
        said.append(page.locator("[aria-live]").first.inner_text())
        if state["hand_over"]:
            hands += 1
            assert page.locator("#showdown-lines li").count() >= 2  # melds, points
            assert page.get_by_role("button", name="Next hand").is_visible() != bool(
                state["game_over"])
            if hands == 1 and tmp_path is not None:
                check_layout(page, "end-of-hand", tmp_path)
                page.set_viewport_size({"width": 1280, "height": 900})
        if state["game_over"]:
            return state, said
        click_move(page, state)
        state = your_turn(page, state["version"])
    raise AssertionError("the game did not end")


def test_a_whole_game_by_clicks(page, tmp_path) -> None:
    start(page)
    state, said = play_to_the_end(page, your_turn(page, None), tmp_path)
    assert state["game_over"].startswith("Game over"), state["game_over"]
    assert page.get_by_text(state["game_over"], exact=True).is_visible()
    assert page.get_by_role("button", name="Review").is_visible()
    # the live region said each change: every turn's words differ from the last turn's
    assert all(a != b for a, b in pairwise(said)) and len(said) > 5, said
    record = read_record(state["record"])
    assert tuple(record.points) == (state["score"]["you"], state["score"]["bot"])
    assert max(record.points) >= TARGET
    assert record.seats[1]["spec"] == "simple"


def test_hints_show_the_advisor_table_and_the_layout_holds(page, tmp_path) -> None:
    start(page, hints=True)
    state = your_turn(page, None)
    for _ in range(10):  # to a discard: the advisor's table then weighs every card
        page.wait_for_function("v => window.ginsim.hint && window.ginsim.hint.version === v",
                               arg=state["version"], timeout=120_000)
        if state["moves"]["discard"] or state["hand_over"]:
            break
        click_move(page, state)
        state = your_turn(page, state["version"])
    head = page.locator("#hint-head").inner_text()
    assert "against simple" in head  # the opponent the advisor assumes
    options = page.locator("#hint-table tbody tr").all_inner_texts()
    hint = page.evaluate("window.ginsim.hint")
    assert len(options) == min(len(hint["rows"]), 8) > 0
    assert all(row["option"] in text for row, text in zip(hint["rows"], options, strict=False))
    if state["moves"]["discard"]:
        assert any(o.startswith("discard") for o in options), options
    assert page.locator("#knock-card table").count() == 3  # the rules' knock card
    check_layout(page, "hand-with-hints", tmp_path)


def test_the_page_names_every_control(page) -> None:
    for role, name in (("combobox", "Bot"), ("checkbox", "Hints"), ("button", "New game"),
                       ("combobox", "Rules")):
        assert page.get_by_role(role, name=name, exact=True).count() == 1, name
    start(page)
    state = page.evaluate("window.ginsim.state")
    for code in state["table"]["loose"] + [c for m in state["table"]["melds"] for c in m]:
        assert page.get_by_role("button", name=code, exact=True).count() == 1, code
    assert page.get_by_role("button", name="Stock", exact=True).count() == 1
    assert page.get_by_role("button", name="Pile", exact=True).count() == 1
    assert page.locator("[aria-live]").count() >= 1


def test_review_after_a_game(page, tmp_path) -> None:
    """Review draws the graph and the flagged decisions with their positions."""
    start(page, target=10)
    state, _ = play_to_the_end(page, your_turn(page, None))
    page.get_by_role("button", name="Review").click()
    page.wait_for_function("window.ginsim.review !== null", timeout=300_000)
    review = page.evaluate("window.ginsim.review")
    bars = page.locator("#review-graph svg rect")
    assert bars.count() == len(review["decisions"]) > 0
    flagged = [d for d in review["decisions"]
               if d["class"] in ("inaccuracy", "mistake", "blunder")]
    items = page.locator("#review-flagged > li")
    assert items.count() == max(len(flagged), 1)
    if flagged:
        first = items.first.inner_text()
        assert flagged[0]["chosen"] in first and flagged[0]["best"] in first
        shown = page.locator("#review-flagged > li").first.get_by_role("img").first
        assert shown.get_attribute("aria-label").startswith("Hand:")
    assert "review is ready" in page.locator("[aria-live]").first.inner_text()
    check_layout(page, "review", tmp_path)


def test_the_keyboard_plays_and_keeps_its_place(page) -> None:
    """Tab to a control and press Enter: after the redraw the focus is on a control of
    the table again, never lost to the page's top."""
    start(page)
    state = page.evaluate("window.ginsim.state")
    for _ in range(4):
        if state["hand_over"] or state["game_over"]:
            break
        name = ("Pass" if "pass" in state["moves"]["buttons"] else "Stock"
                if "stock" in state["moves"]["buttons"] else state["moves"]["discard"][-1])
        page.get_by_role("button", name=name, exact=True).focus()
        page.keyboard.press("Enter")
        state = your_turn(page, state["version"])
        focused = page.evaluate("[document.activeElement.tagName, "
                                "!!document.activeElement.closest('#table'), "
                                "document.activeElement.disabled]")
        assert focused == ["BUTTON", True, False], focused
