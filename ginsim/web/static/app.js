// ginsim serve's page: one websocket, the game drawn from each "state" message.
// No framework and no build step: the server sends the whole picture every time.
"use strict";

const $ = (id) => document.getElementById(id);
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RED = new Set(["H", "D"]);
const ginsim = { state: null, hint: null, review: null, knockArmed: false, socket: null };
window.ginsim = ginsim; // for people poking at the page, and for its tests

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

// A card as it looks: rank and suit symbol; its accessible name is its code (7H).
function cardFace(code) {
  const rank = code.slice(0, -1), suit = code.slice(-1);
  const face = el("span", { class: "face" + (RED.has(suit) ? " red" : ""), "aria-hidden": "true" });
  face.append(el("span", { class: "rank", text: rank === "T" ? "10" : rank }),
              el("span", { class: "suit", text: SUITS[suit] || suit }));
  return face;
}

function cardsText(cards) {
  return cards && cards.length ? cards.join(" ") : "none";
}

// --- the connection ---------------------------------------------------------------
function connect() {
  const saved = sessionStorage.getItem("ginsim-session");
  const url = new URL("/ws", location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  if (saved) url.searchParams.set("session", saved);
  const socket = new WebSocket(url);
  ginsim.socket = socket;
  socket.onmessage = (ev) => receive(JSON.parse(ev.data));
  socket.onclose = () => say("The connection to the server closed. Reload the page to go on.");
}

function send(message) {
  if (!ginsim.socket || ginsim.socket.readyState !== WebSocket.OPEN) {
    say("Not connected to the server: reload the page.");
    return;
  }
  ginsim.socket.send(JSON.stringify(message));
}

function receive(m) {
  const handlers = { hello, state: drawState, hint: drawHint, knock_card: drawKnockCard,
                     review: drawReview, error: showError, progress: showProgress };
  (handlers[m.type] || (() => {}))(m);
}

function hello(m) {
  sessionStorage.setItem("ginsim-session", m.session);
  fillSelect($("bot"), [...m.bots, "other"], (v) => v === "other" ? "other spec…" : v, "simple");
  fillSelect($("rules"), [...m.rules, "other"], (v) => v === "other" ? "other spec…" : v.replace("_", " "), "modern");
  if (m.games.length) send({ type: "state", game: m.games[m.games.length - 1] });
  else say("Choose a bot and rules, then press New game.");
}

function fillSelect(select, values, label, chosen) {
  const before = select.value;
  select.replaceChildren(...values.map((v) => el("option", { value: v, text: label(v) })));
  select.value = before && values.includes(before) ? before : chosen;
}

// --- what the server says ----------------------------------------------------------
function say(text) {
  $("status").textContent = text;
}

function showError(m) {
  if (m.request === "hint") {
    $("hint-head").textContent = m.message;
    return;
  }
  $("error").textContent = m.message;
  if (m.request === "review") $("review-summary").textContent = m.message;
  if (m.request === "review") $("review").hidden = false;
}

function showProgress(m) {
  if (m.what === "review") say(`Reviewing: ${m.done} of ${m.total} decisions weighed.`);
}

// After a redraw, the keyboard stays where it was: on the same control if it is still
// there and enabled, else on the first control you may use now.
function keepFocus(hadFocus) {
  if (!hadFocus) return;
  const named = hadFocus.getAttribute("aria-label") || hadFocus.id;
  const same = [...document.querySelectorAll("#table button")].find((b) =>
    (b.getAttribute("aria-label") || b.id) === named && !b.disabled && !b.hidden);
  const first = [...document.querySelectorAll("#table button")].find((b) =>
    !b.disabled && !b.hidden && b.offsetParent !== null);
  (same || first || $("hand")).focus();  // the hand holds the focus while the bot moves
}

function drawState(s) {
  const active = document.activeElement;
  const hadFocus = active && active.closest && active.closest("#table") ? active : null;
  const before = ginsim.state && ginsim.state.game === s.game ? ginsim.state : null;
  ginsim.state = s;
  ginsim.knockArmed = false;
  $("error").textContent = "";
  $("table").hidden = false;
  $("scoreboard").hidden = false;
  $("score-you").textContent = s.score.you;
  $("score-bot").textContent = s.score.bot;
  $("score-target").textContent = s.target;
  $("hand-number").textContent = s.hand_number;
  drawTable(s);
  drawHand(s);
  drawActions(s);
  drawLog(s);
  drawShowdown(s);
  $("record").textContent = s.record_error || `This game's record: ${s.record}`;
  say(stateWords(s, before));
  keepFocus(hadFocus);
  if (ginsim.hint && ginsim.hint.version !== s.version) clearHint();
  if ($("hints").checked && s.moves.buttons.length + s.moves.discard.length > 0) askHint();
}

// What changed, for the aria-live region: the new moves, then what to do.
function stateWords(s, before) {
  const seen = before && before.hand_number === s.hand_number ? before.log.length : 0;
  const news = s.log.slice(seen);
  let next = s.moves.prompt;
  if (s.bot_to_move) next = "The bot is thinking." + (s.hand_number === 1 && s.log.length < 3 ?
    " Its first move may wait for its kernels to compile (minutes for mc on a fresh install)." : "");
  if (s.hand_over) next = s.showdown[s.showdown.length - 1] +
    (s.game_over ? " " + s.game_over : " Press Next hand.");
  return [...news, next].filter(Boolean).join(" ");
}

function drawTable(s) {
  const t = s.table, moves = s.moves.buttons;
  const pile = $("pile-button");
  pile.replaceChildren(t.pile_top ? cardFace(t.pile_top) : "–");
  pile.disabled = !moves.includes("pile");
  $("pile-desc").textContent = t.pile_top ? `${t.pile_top}, ${t.pile_size} in the pile`
                                          : "the pile is empty";
  const stock = $("stock-button");
  stock.disabled = !moves.includes("stock");
  $("stock-desc").textContent = `${t.stock_left} cards left`;
  $("took").textContent = cardsText(t.opponent_took);
  $("deadwood").textContent = `(deadwood ${t.deadwood}; ${t.knock_words}` +
    (t.multiplier > 1 ? `; this hand counts x${t.multiplier})` : ")");
}

function drawHand(s) {
  const t = s.table, m = s.moves;
  const hand = $("hand");
  const groups = [...t.melds.map((cards) => ({ cards, meld: true })),
                  ...(t.loose.length ? [{ cards: t.loose, meld: false }] : [])];
  hand.replaceChildren(...groups.map((g) => {
    const box = el("div", { class: g.meld ? "group meld" : "group loose" });
    box.append(el("span", { class: "group-label", text: g.meld ? "meld" : "deadwood" }));
    for (const code of g.cards) box.append(cardButton(code, s, m));
    return box;
  }));
}

function cardButton(code, s, m) {
  const playable = m.discard.includes(code) || m.knock.includes(code);
  const b = el("button", { type: "button", class: "card", "aria-label": code });
  b.append(cardFace(code));
  if (code === s.table.drawn) b.classList.add("drawn");
  if (m.knock.includes(code)) b.classList.add("can-knock");
  b.disabled = !playable;
  b.addEventListener("click", () => playCard(code));
  return b;
}

function playCard(code) {
  const m = ginsim.state.moves;
  if (ginsim.knockArmed || (!m.discard.length && m.knock.includes(code))) {
    if (!m.knock.includes(code)) {
      say(`Knocking with ${code} is not allowed: it keeps too much deadwood. Knock with ` +
          `${m.knock.join(" or ")}, or press Knock again to play on.`);
      return;
    }
    move(`knock ${code}`);
  } else {
    move(`discard ${code}`);
  }
}

function drawActions(s) {
  const m = s.moves, b = m.buttons;
  $("take").hidden = !b.includes("take");
  $("pass").hidden = !b.includes("pass");
  $("knock").hidden = m.knock.length === 0;
  $("knock").setAttribute("aria-pressed", "false");
  $("gin").hidden = m.gin.length === 0;
  $("big-gin").hidden = !b.includes("big_gin");
  $("next-hand").hidden = !(s.hand_over && !s.game_over);
  $("review-button").hidden = !s.game_over;
  $("prompt").textContent = s.bot_to_move ? "The bot is thinking…" : m.prompt;
}

function drawLog(s) {
  $("log").replaceChildren(...s.log.map((line) => el("li", { text: line })));
}

function drawShowdown(s) {
  $("showdown").hidden = !s.hand_over;
  $("showdown-lines").replaceChildren(...s.showdown.map((line) => el("li", { text: line })));
  $("game-over").hidden = !s.game_over;
  $("game-over").textContent = s.game_over;
}

function move(text) {
  ginsim.knockArmed = false;
  send({ type: "move", game: ginsim.state.game, move: text });
}

// --- hints ------------------------------------------------------------------------
function askHint() {
  const s = ginsim.state;
  if (!s || (ginsim.hint && ginsim.hint.version === s.version)) return;
  $("hint-panel").hidden = false;
  $("hint-head").textContent = "The advisor is weighing your options…";
  send({ type: "hint", game: s.game });
}

function clearHint() {
  ginsim.hint = null;
  $("hint-table").replaceChildren();
  $("hint-words").textContent = "";
  $("hint-head").textContent = $("hints").checked ? "No decision of yours right now." : "";
}

function fmt(x) {
  return (x >= 0 ? "+" : "−") + Math.abs(x).toFixed(2);
}

function drawHint(h) {
  if (!ginsim.state || h.version !== ginsim.state.version || !$("hints").checked) return;
  ginsim.hint = h;
  $("hint-panel").hidden = false;
  $("hint-head").textContent = `Expected points this hand (yours minus the bot's, 95% CI)` +
    (h.game_win ? " and your chance of winning the game," : "") +
    ` against ${h.opponent}, the opponent the advisor assumes.` + (h.note ? ` (${h.note})` : "");
  const head = el("tr", {}, el("th", { scope: "col", text: "Option" }),
                  el("th", { scope: "col", text: "Points" }),
                  el("th", { scope: "col", text: "95% CI" }));
  if (h.game_win) head.append(el("th", { scope: "col", text: "Win game" }));
  const rows = h.rows.slice(0, 8).map((r) => {
    const mark = r.recommended ? " (recommended)" : r.best ? " (best, close)" : r.close ? " (close)" : "";
    const tr = el("tr", { class: r.best ? "best" : "" },
                  el("td", { text: r.option + mark }), el("td", { text: fmt(r.expected_points) }),
                  el("td", { text: `${fmt(r.low)} to ${fmt(r.high)}` }));
    if (h.game_win) tr.append(el("td", { text: r.game_win == null ? "" :
                                          (100 * r.game_win).toFixed(1) + "%" }));
    return tr;
  });
  $("hint-table").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
  $("hint-words").textContent = h.words;
}

// --- the knock card ---------------------------------------------------------------
function drawKnockCard(k) {
  $("knock-head").textContent = k.title;
  $("knock-words").textContent = k.words;
  $("knock-legend").textContent = k.legend;
  $("knock-card").replaceChildren(...k.panels.map((p) => {
    const table = el("table", { class: "knock-grid" });
    table.append(el("caption", { text: p.title }));
    const head = el("tr", {}, el("th", { scope: "col", text: "dw \\ stock" }),
                    ...p.columns.map((c) => el("th", { scope: "col", text: c })));
    const body = p.rows.map(([dw, ...cells]) => el("tr", {},
      el("th", { scope: "row", text: dw }),
      ...cells.map((c) => el("td", { class: "cell-" + c.split(" ")[0].toLowerCase(),
                                      text: c.split(" ")[0] === "KNOCK" ? "K" : c.startsWith("either") ? "e" : "·",
                                      title: c, "aria-label": c }))));
    table.append(el("thead", {}, head), el("tbody", {}, ...body));
    return table;
  }));
}

// --- the review -------------------------------------------------------------------
const FLAGGED = new Set(["inaccuracy", "mistake", "blunder"]);
const CLASS_COLOURS = { best: "#1b7837", good: "#7fbf7b", inaccuracy: "#e6ab02",
                        mistake: "#d95f02", blunder: "#b2182b" };

function askReview() {
  $("review").hidden = false;
  $("review-summary").textContent = "Reviewing the game: each of your decisions is weighed " +
    "by the advisor. This takes a while.";
  say($("review-summary").textContent);
  send({ type: "review", game: ginsim.state.game });
}

// How many decisions fell in each class (the summary counts them per kind of decision).
function classCounts(classes) {
  return Object.entries(classes || {}).map(([name, n]) =>
    [name, typeof n === "number" ? n : Object.values(n).reduce((a, b) => a + b, 0)]);
}

function drawReview(r) {
  ginsim.review = r;
  const s = r.summary;
  $("review").hidden = false;
  const counts = classCounts(s.classes).map(([k, n]) => `${n} ${k}`).join(", ");
  const ci = s.ci && s.ci[0] != null ? ` (95% CI ${s.ci[0].toFixed(2)} to ${s.ci[1].toFixed(2)})` : "";
  $("review-summary").textContent = `${s.decisions} of your decisions weighed by the advisor ` +
    `against ${r.model || "the bot"}: mean loss ${s.mean_loss == null ? "n/a" : s.mean_loss.toFixed(2)}` +
    ` points a decision${ci}` + (counts ? `; ${counts}.` : ".");
  $("review-graph").replaceChildren(reviewGraph(r.decisions, r.thresholds), graphKey());
  const flagged = r.decisions.filter((d) => FLAGGED.has(d.class));
  $("review-flagged").replaceChildren(...(flagged.length ? flagged.map(flaggedItem) :
    [el("li", { text: "Nothing flagged: no decision lost enough to be an inaccuracy" +
      (r.thresholds ? ` (${r.thresholds.inaccuracy} points or more).` : ".") })]));
  say("The review is ready. " + $("review-summary").textContent);
}

function graphKey() {
  const key = el("p", { class: "small graph-key" });
  for (const [name, colour] of Object.entries(CLASS_COLOURS)) {
    const swatch = el("span", { class: "swatch", "aria-hidden": "true" });
    swatch.style.background = colour;
    key.append(el("span", { class: "key-item" }, swatch, name));
  }
  return key;
}

// Loss per decision as bars (points a hand), one colour per class, hands marked, the
// review's thresholds (inaccuracy, mistake, blunder) as dashed lines.
function reviewGraph(decisions, thresholds) {
  const NS = "http://www.w3.org/2000/svg";
  // as wide as its box (so its text keeps its size on a phone), 320 to 900 units
  const W = Math.min(900, Math.max(320, $("review-graph").clientWidth || 640)), H = 180, pad = 28;
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `Loss in points for each of ${decisions.length} decisions`);
  const lines = Object.values(thresholds || {}).filter((v) => typeof v === "number").sort((a, b) => a - b);
  const top = Math.max(lines.length ? lines[lines.length - 1] * 1.1 : 6, ...decisions.map((d) => d.loss));
  const x = (i) => pad + (i * (W - pad - 8)) / Math.max(decisions.length, 1);
  const y = (v) => H - pad - (v * (H - 2 * pad)) / top;
  const add = (tag, attrs, text) => {
    const n = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
    if (text) n.textContent = text;
    svg.append(n);
    return n;
  };
  add("line", { x1: pad, y1: y(0), x2: W - 4, y2: y(0), stroke: "#555" });
  let lastLabel = Infinity;  // labels at least 18 units apart, so none overlaps another
  for (const v of [...lines, ...[20, 40].filter((v) => v > (lines[lines.length - 1] || 0))].filter((v) => v <= top)) {
    add("line", { x1: pad, y1: y(v), x2: W - 4, y2: y(v), stroke: "#ccc", "stroke-dasharray": "3 3" });
    if (lastLabel - y(v) >= 18) {
      add("text", { x: 2, y: y(v) + 5, "font-size": 14 }, String(v));
      lastLabel = y(v);
    }
  }
  const bw = Math.max(2, (W - pad - 8) / Math.max(decisions.length, 1) - 1);
  let hand = null, lastX = -Infinity;
  decisions.forEach((d, i) => {
    if (d.hand !== hand) {
      hand = d.hand;
      add("line", { x1: x(i), y1: pad / 2, x2: x(i), y2: H - pad, stroke: "#eee" });
      if (x(i) - lastX >= 40) {
        add("text", { x: x(i) + 1, y: H - 8, "font-size": 14 }, `h${hand}`);
        lastX = x(i);
      }
    }
    const r = add("rect", { x: x(i), y: y(d.loss), width: bw,
                            height: Math.max(1, y(0) - y(d.loss)), fill: CLASS_COLOURS[d.class] || "#888" });
    const t = document.createElementNS(NS, "title");
    t.textContent = `Hand ${d.hand}, ${d.kind}: ${d.chosen} (best ${d.best}), loss ${d.loss.toFixed(2)}, ${d.class}`;
    r.append(t);
  });
  add("text", { x: pad + 4, y: 14, "font-size": 14 }, "loss (points) at each decision; h: hand");
  return svg;
}

function flaggedItem(d) {
  const p = d.position;
  const li = el("li", { class: "flag flag-" + d.class });
  li.append(el("p", { class: "flag-head",
    text: `Hand ${d.hand}, ${d.kind}: ${d.class}. You chose ${d.chosen}; best was ${d.best} ` +
          `(loss ${d.loss.toFixed(2)} points${d.game_loss != null ? `; your chance of winning the game ${(100 * d.game_loss).toFixed(1)} points lower` : ""}).` }));
  const cards = (x) => Array.isArray(x) ? x : (x || "").split(/\s+/).filter(Boolean);
  const row = (label, list) => {
    const div = el("div", { class: "position-row" }, el("span", { class: "label", text: label }));
    const box = el("span", { class: "mini-cards", role: "img", "aria-label": `${label}: ${list.join(" ") || "none"}` });
    for (const c of list) box.append(el("span", { class: "mini" }, cardFace(c)));
    if (!list.length) box.append("none");
    div.append(box);
    return div;
  };
  const value = (move) => (d.options || []).find((o) => o.move === move);
  const best = value(d.best), chosen = value(d.chosen);
  if (best && chosen) {
    li.append(el("p", { class: "small", text: `Expected points: ${d.best} ${fmt(best.value)} ` +
      `(95% CI ${fmt(best.ci[0])} to ${fmt(best.ci[1])}); ${d.chosen} ${fmt(chosen.value)}.` }));
  }
  if (d.knock_card) li.append(el("p", { class: "small", text: `The knock card says: ${d.knock_card}.` }));
  li.append(row("Hand", cards(p.hand)));
  if (p.drawn) li.append(row("Drawn", [p.drawn]));
  li.append(row("Pile top", p.pile_top ? [p.pile_top] : []));
  li.append(row("Bot took", cards(p.opponent_took)));
  li.append(el("p", { class: "small", text: `Stock ${p.stock_left}; score ${p.score[0]} to ${p.score[1]}.` }));
  return li;
}

function readUpload(file) {
  file.text().then((text) => {
    $("review").hidden = false;
    $("review-summary").textContent = `Reviewing ${file.name}…`;
    send({ type: "review", record: text });
  });
}

// --- controls ---------------------------------------------------------------------
function newGame(ev) {
  ev.preventDefault();
  const bot = $("bot").value === "other" ? $("spec").value.trim() : $("bot").value;
  const rules = $("rules").value === "other" ? $("rules-spec").value.trim() : $("rules").value;
  const message = { type: "new_game", bot, rules };
  const target = parseInt($("target").value, 10);
  if (Number.isFinite(target)) message.target = target;
  clearHint();
  $("review").hidden = true;
  say(`Starting a game against ${bot}…`);
  send(message);
}

function armKnock() {
  ginsim.knockArmed = !ginsim.knockArmed;
  $("knock").setAttribute("aria-pressed", String(ginsim.knockArmed));
  say(ginsim.knockArmed ? `Knock: press the card to discard face down (${ginsim.state.moves.knock.join(", ")}).`
                        : "Knock cancelled: discard a card.");
}

function ginMove() {
  move(`gin ${ginsim.state.moves.gin[0]}`);
}

window.addEventListener("DOMContentLoaded", () => {
  $("setup").addEventListener("submit", newGame);
  $("bot").addEventListener("change", () => { $("spec-field").hidden = $("bot").value !== "other"; });
  $("rules").addEventListener("change", () => { $("rules-spec-field").hidden = $("rules").value !== "other"; });
  $("stock-button").addEventListener("click", () => move("stock"));
  $("pile-button").addEventListener("click", () => move("pile"));
  $("take").addEventListener("click", () => move("take"));
  $("pass").addEventListener("click", () => move("pass"));
  $("knock").addEventListener("click", armKnock);
  $("gin").addEventListener("click", ginMove);
  $("big-gin").addEventListener("click", () => move("big gin"));
  $("next-hand").addEventListener("click", () => send({ type: "next_hand", game: ginsim.state.game }));
  $("review-button").addEventListener("click", askReview);
  $("record-file").addEventListener("change", (ev) => ev.target.files[0] && readUpload(ev.target.files[0]));
  $("hints").addEventListener("change", () => {
    $("hint-panel").hidden = !$("hints").checked;
    if ($("hints").checked) askHint(); else clearHint();
  });
  let resizing = null;  // the graph redrawn to its box's new width
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => {
      if (ginsim.review) $("review-graph").replaceChildren(reviewGraph(ginsim.review.decisions, ginsim.review.thresholds), graphKey());
    }, 100);
  });
  connect();
});
