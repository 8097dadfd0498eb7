"""A game review's page, ``review.html``: one file, no scripts, the graph of the game
drawn inline (SVG) across its decisions, and each flagged position drawn with the hand,
the pile and the alternatives with their values (docs/review.md)."""

from __future__ import annotations

import html
from pathlib import Path

from ..analysis.review.classes import FLAGGED
from ..game.inputs.files import write_text_atomic

PAGE_NAME = "review.html"

CLASS_COLOURS = {"best": "#2e7d32", "good": "#66bb6a", "inaccuracy": "#f9a825",
                 "mistake": "#ef6c00", "blunder": "#c62828"}
SUIT_COLOURS = {"S": "#222", "C": "#222", "H": "#c62828", "D": "#c62828"}
SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
WIDTH, HEIGHT, PAD = 760, 260, 40
OPTIONS_SHOWN = 8  # alternatives listed under a flagged position
STYLE = """body{font-family:sans-serif;max-width:820px;margin:2em auto;color:#222}
table{border-collapse:collapse}td,th{padding:2px 8px;border-bottom:1px solid #ddd;
text-align:left}.card{display:inline-block;border:1px solid #999;border-radius:4px;
padding:1px 4px;margin:1px;font-weight:bold;background:#fff}.drawn{background:#fff7d6}
.chosen{background:#fdecea}.best{background:#e8f5e9}.pos{margin:1.2em 0;padding:.6em;
border:1px solid #ddd;border-radius:6px}small{color:#666}"""


def write_review_page(review_json: dict, out_dir: str | Path) -> Path:
    """Write ``review.html`` (:func:`review_html`) into ``out_dir`` (made if new), whole
    or not at all; its path."""
    page = review_html(review_json)
    out = Path(out_dir)
    out.mkdir(parents=False, exist_ok=True)
    return write_text_atomic(out / PAGE_NAME, page)


def review_html(data: dict) -> str:
    """The page of a review's JSON (``Review.to_json()``): summary, graph, classes,
    knock decisions and the flagged positions."""
    s = data["summary"]
    title = f"Review of seat {data['seat']} ({data['seat_name']})"
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{_e(title)}</title>"
             f"<style>{STYLE}</style></head><body><h1>{_e(title)}</h1>",
             f"<p>{_e(data['rules'])} rules; the opponent played by the advisor as "
             f"{_e(data.get('model', '?'))}; {data.get('rollouts', '?')} rollouts a "
             f"decision.</p>", _summary_html(s), "<h2>The game, decision by decision</h2>",
             game_graph(data["decisions"]), _classes_html(s["classes"]),
             _knocks_html(s), "<h2>Flagged decisions</h2>"]
    flagged = [d for d in data["decisions"] if d["class"] in FLAGGED]
    parts += [position_html(d) for d in flagged] or ["<p>None: every decision was the "
                                                      "advisor's best or close to it.</p>"]
    parts.append("</body></html>")
    return "\n".join(parts)


def _e(text: object) -> str:
    return html.escape(str(text))


def _summary_html(s: dict) -> str:
    if not s["decisions"]:
        return "<p>No decision to weigh.</p>"
    game = ("" if s.get("mean_game_loss") is None
            else f"; chance of winning the game lost: {100 * s['mean_game_loss']:.2f}% a "
                 "decision")
    return (f"<p><b>{s['decisions']}</b> decisions reviewed. Error rate "
            f"<b>{s['mean_loss']:.3f}</b> points a decision (95% CI {s['ci'][0]:.3f} to "
            f"{s['ci'][1]:.3f}){game}.</p>")


def game_graph(decisions: list[dict]) -> str:
    """An SVG line of the value of the option chosen at each decision (or the chance of
    winning the game, where the review gives it), the best option's as a dashed line,
    each decision a dot coloured by its class; hands marked along the bottom."""
    if not decisions:
        return "<p>(no decisions)</p>"
    wins = all(d["options"][0].get("game_win") is not None for d in decisions)
    key = "game_win" if wins else "value"

    def value(d: dict, k: int) -> float:
        return float(d["options"][k][key]) * (100 if wins else 1)

    chosen = [value(d, _chosen_index(d)) for d in decisions]
    best = [value(d, 0) for d in decisions]
    low, high = min(chosen + best + [0.0]), max(chosen + best + [0.0])
    high = high if high > low else low + 1
    n = len(decisions)

    def xy(i: int, v: float) -> tuple[float, float]:
        x = PAD + (WIDTH - 2 * PAD) * (i / max(1, n - 1))
        return x, HEIGHT - PAD - (HEIGHT - 2 * PAD) * (v - low) / (high - low)

    def path(values: list[float]) -> str:
        return " ".join(f"{x:.1f},{y:.1f}" for x, y in (xy(i, v) for i, v in enumerate(values)))

    zero = xy(0, 0.0)[1]
    unit = "chance of winning the game, %" if wins else "expected points this hand"
    items = [f"<svg class='graph' width='{WIDTH}' height='{HEIGHT}' "
             f"xmlns='http://www.w3.org/2000/svg' role='img'><title>{unit}</title>",
             f"<line x1='{PAD}' x2='{WIDTH - PAD}' y1='{zero:.1f}' y2='{zero:.1f}' "
             f"stroke='#bbb'/>",
             f"<polyline points='{path(best)}' fill='none' stroke='#90a4ae' "
             f"stroke-dasharray='4 3'/>",
             f"<polyline points='{path(chosen)}' fill='none' stroke='#37474f'/>"]
    for i, (d, v) in enumerate(zip(decisions, chosen, strict=True)):
        x, y = xy(i, v)
        items.append(f"<circle cx='{x:.1f}' cy='{y:.1f}' r='3.5' "
                     f"fill='{CLASS_COLOURS[d['class']]}'><title>#{d['index']} hand "
                     f"{d['hand']} {_e(d['kind'])}: {_e(d['chosen'])} ({d['class']}, loss "
                     f"{d['loss']:.2f})</title></circle>")
    items += _hand_marks(decisions, xy)
    items.append(f"<text x='4' y='14' font-size='11'>{_e(unit)}: {high:.1f} top, "
                 f"{low:.1f} bottom; solid: chosen, dashed: best</text></svg>")
    return "\n".join(items)


def _hand_marks(decisions: list[dict], xy) -> list[str]:
    marks, last = [], None
    for i, d in enumerate(decisions):
        if d["hand"] != last:
            x = xy(i, 0.0)[0]
            marks.append(f"<text x='{x:.1f}' y='{HEIGHT - 8}' font-size='10' "
                         f"fill='#555'>h{d['hand']}</text>")
            last = d["hand"]
    return marks


def _chosen_index(d: dict) -> int:
    moves = [o["move"] for o in d["options"]]
    return moves.index(d["chosen"]) if d["chosen"] in moves else 0


def card_html(code: str | None, extra: str = "") -> str:
    """A card drawn as a small box: rank and suit sign, red or black."""
    if not code:
        return "<span class='card'>–</span>"
    rank, suit = code[:-1], code[-1]
    return (f"<span class='card {extra}' style='color:{SUIT_COLOURS.get(suit, '#222')}'>"
            f"{_e(rank)}{SUIT_SIGNS.get(suit, _e(suit))}</span>")


def position_html(d: dict) -> str:
    """A flagged decision: the hand (the drawn card marked), the pile's top, the stock,
    the score, and the alternatives with their values and intervals."""
    p = d["position"]
    cards = "".join(card_html(c) for c in p["hand"])
    if p.get("drawn"):
        cards += " + " + card_html(p["drawn"], "drawn")
    took = "".join(card_html(c) for c in p.get("opponent_took", [])) or "none"
    rows = []
    for o in d["options"][:OPTIONS_SHOWN]:
        mark = "chosen" if o["move"] == d["chosen"] else "best" if o["move"] == d["best"] else ""
        win = "" if o.get("game_win") is None else f"{100 * o['game_win']:.1f}%"
        rows.append(f"<tr class='{mark}'><td>{_e(o['move'])}</td><td>{o['value']:+.2f}</td>"
                    f"<td>[{o['ci'][0]:+.2f}, {o['ci'][1]:+.2f}]</td><td>{win}</td></tr>")
    game = "" if d.get("game_loss") is None else f", game chance {100 * d['game_loss']:.1f}%"
    return (f"<div class='pos' id='d{d['index']}'><b>#{d['index']} hand {d['hand']}, "
            f"{_e(d['kind'])}</b> — <span style='color:{CLASS_COLOURS[d['class']]}'>"
            f"{d['class']}</span>: loss {d['loss']:.2f} points{game}<br>"
            f"Hand: {cards}<br>Pile top: {card_html(p.get('pile_top'))} &nbsp; Stock: "
            f"{p['stock_left']} &nbsp; Score: {p['score'][0]} to {p['score'][1]} &nbsp; "
            f"Opponent took and holds: {took}<table><tr><th>option</th><th>expected "
            f"points</th><th>95% CI</th><th>game win</th></tr>{''.join(rows)}</table>"
            f"<small>Chosen: {_e(d['chosen'])}; best: {_e(d['best'])}</small></div>")


def _classes_html(classes: dict) -> str:
    kinds = list(next(iter(classes.values())))
    head = "".join(f"<th>{_e(k)}</th>" for k in kinds)
    rows = "".join(f"<tr><td style='color:{CLASS_COLOURS[c]}'>{c}</td>"
                   + "".join(f"<td>{row[k]}</td>" for k in kinds) + "</tr>"
                   for c, row in classes.items())
    return f"<h2>Classes by kind of decision</h2><table><tr><th></th>{head}</tr>{rows}</table>"


def _knocks_html(s: dict) -> str:
    knocks = s.get("knocks") or []
    if not knocks:
        return ""
    rows = "".join(f"<tr><td>{k['hand']}</td><td>{k['stock_left']}</td><td>{k['chosen']}</td>"
                   f"<td>{k['advisor']}</td><td>{k['knock_card'] or '–'}</td></tr>"
                   for k in knocks)
    return (f"<h2>Knock decisions beside the knock card ({_e(s.get('knock_card') or 'none')}"
            f")</h2><table><tr><th>hand</th><th>stock</th><th>the seat</th><th>advisor"
            f"</th><th>knock card</th></tr>{rows}</table>")
