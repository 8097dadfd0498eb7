"""``ginsim play``: a game against a bot in the terminal (docs/table.md).

The game is :class:`~ginsim.table.game_table.TableGame`; this module only shows it
(your hand sorted with its best melds, the pile top, the stock, what the bot did, the
showdown, the scores) and reads your moves, one line each: ``s`` / ``p`` to draw,
``KD`` to discard, ``knock KD`` or ``knock``, ``take`` / ``pass`` at the upcard offer,
``hint`` for the advisor's table, ``quit`` to stop. A move the hand does not allow gets
its one-line reason and another try.
"""

from __future__ import annotations

from collections.abc import Callable

from ..game.cards import card_from_text, card_text, cards_to_mask, mask_to_cards, sort_key
from ..game.inputs.specs import brief
from ..game.melds import best_melds, deadwood
from ..game.state import ST_TAKEN
from ..table.actions import IllegalAction
from ..table.game_table import TableGame
from ..table.table import Table

PROMPTS = {"offer": "take the upcard {top} or pass? [take/pass]",
           "draw": "draw: s (stock) or p (pile: {top})",
           "discard": "discard a card (e.g. {example}), knock CARD, or knock",
           "last_discard": "the final discard {top}: knock CARD with it, or pass"}
DONE = ("knock", "gin", "undercut", "big_gin")
#: The longest line read as a move (``knock 10D`` is nine characters): a longer one is
#: refused without being parsed, and a refusal never echoes more than MAX_ECHO_CHARS.
MAX_MOVE_CHARS = 40
MAX_ECHO_CHARS = 200


def hand_text(cards: list[str] | list[int], rules) -> str:
    """Cards sorted by suit and rank, best melds first in brackets, then the deadwood."""
    ints = [c if isinstance(c, int) else card_from_text(c) for c in cards]
    if not ints:
        return "(no cards)"
    melds = best_melds(ints, rules)
    melded = cards_to_mask(card_from_text(c) for m in melds for c in m)
    loose = [c for c in sorted(ints, key=sort_key) if not (melded >> c) & 1]
    parts = ["[" + " ".join(m) + "]" for m in melds] + [" ".join(_texts(loose))]
    return f"{'  '.join(p for p in parts if p)}   (deadwood {deadwood(ints, rules)})"


def _texts(cards: list[int]) -> list[str]:
    return [card_text(c) for c in cards]


def event_text(event: dict, who: str) -> str:
    """One move in words, e.g. "Bot takes 7H from the pile" or "You discard KD"."""
    card = event.get("card")
    you = who == "You"
    words = {"take": (f"take the upcard {card}", f"takes the upcard {card}"),
             "pass": (f"pass {card}", f"passes {card}"),
             "stock": (f"draw {card} from the stock", "draws from the stock"),
             "pile": (f"take {card} from the pile", f"takes {card} from the pile"),
             "discard": (f"discard {card}", f"discards {card}"),
             "knock": (f"knock, discarding {card}", f"knocks, discarding {card}"),
             "big_gin": ("lay down big gin", "lays down big gin")}[event["action"]]
    return f"{who} {words[0] if you else words[1]}"


def position_text(table: Table, rules) -> str:
    """Your side of the table now: your hand, the pile top, the stock, the knock limit,
    the cards the bot took from the pile and still holds."""
    view = table.observation(0)
    took = _texts(sorted(mask_to_cards(int(table.hs[ST_TAKEN + 1])), key=sort_key))
    lines = [f"  Your hand: {hand_text(view['hand'], rules)}",
             f"  Pile top: {view['pile_top'] or '(empty)'}   Stock: {view['stock_left']}   "
             f"Knock limit: {view['knock_limit']}"
             + (f"   Multiplier: x{view['multiplier']}" if view["multiplier"] > 1 else "")]
    if took:
        lines.append(f"  The bot took from the pile and holds: {' '.join(took)}")
    return "\n".join(lines)


def showdown_text(table: Table, rules) -> str:
    """Both hands with their melds, the knocker's melds and the defender's layoffs, the
    deadwoods and the points."""
    r = table.result()
    names = ("You", "Bot")
    lines = ["", "  Showdown:"]
    for seat in (0, 1):
        lines.append(f"    {names[seat]:>3}: {hand_text(r['hands'][seat], rules)}")
    if r["outcome"] == "dead":
        lines.append("    The hand is dead: nobody scores; the same dealer deals again.")
        return "\n".join(lines)
    k = r["knocker"]
    verb = "knocks" if k else "knock"
    if r["outcome"] in ("gin", "big_gin"):
        verb = ("goes" if k else "go") + (" big gin" if r["outcome"] == "big_gin" else " gin")
    else:
        verb += f" with deadwood {r['knocker_deadwood']}"
    lines.append(f"    {names[k]} {verb}: melds "
                 + " ".join("[" + " ".join(m) + "]" for m in r["melds"]))
    laid = [c for m in r["layoffs"] for c in m]
    if laid:
        lines.append(f"    {names[1 - k]} lay{'s' if 1 - k else ''} off: {' '.join(laid)}")
    lines.append(f"    Deadwood: {names[k]} {r['knocker_deadwood']}, {names[1 - k]} "
                 f"{r['defender_deadwood_before_layoff']} -> {r['defender_deadwood']}")
    outcome = {"knock": "knock", "gin": "gin", "undercut": "undercut!", "big_gin": "big gin"}
    lines.append(f"    {outcome[r['outcome']].capitalize()}: You {r['points'][0]}, "
                 f"Bot {r['points'][1]} points")
    return "\n".join(lines)


def hint_text(table: Table, rules, rollouts: int = 400) -> str:
    """The advisor's table (``ginsim.advise``) for the decision in front of you."""
    from ..analysis.advise import advice_words, advise
    hand = table.hand_of(0)
    drawn = None
    if table.phase == "discard" and table.events and table.events[-1]["seat"] == 0 and (
            table.events[-1]["action"] in ("stock", "pile", "take")):
        drawn = table.events[-1]["card"]
        hand = [c for c in hand if c != card_from_text(drawn)]
    if table.phase == "discard" and drawn is None:
        return "  (no hint for the first discard of the eleven-card deal)"
    try:
        frame = advise(_hand_str(hand), drawn=drawn, history=table.history(0), rules=rules,
                       rollouts=rollouts, seed=0)
    except ValueError as err:
        return f"  (no hint here: {err})"
    rows = [f"    {row.option:<24} {row.expected_points:+6.2f}  [{row.low:+.2f}, {row.high:+.2f}]"
            for row in frame.head(6).itertuples()]
    return "\n".join(["  Advisor (expected points this hand, 95% CI):", *rows,
                      "  " + advice_words(frame)])


def _hand_str(cards: list[int]) -> str:
    return " ".join(_texts(sorted(cards, key=sort_key)))


def play_session(game: TableGame, read: Callable[[str], str | None],
                 write: Callable[[str], None], hint: bool = False) -> int:
    """Play ``game`` to its end reading your moves with ``read(prompt)`` (None: input
    ended) and showing it with ``write``. Returns 0 when the game was played out, 1 if
    you quit."""
    rules = game.rules
    write(f"ginsim play: you against {game.bot_spec}, rules {rules.spec()}, "
          f"game to {rules.target}. Type 'hint' for advice, 'quit' to stop.")
    while not game.over:
        table = game.deal()
        dealer = "you" if table.dealer == 0 else "the bot"
        write(f"\nHand {game.hands_played + 1} (dealer: {dealer}); points You "
              f"{game.points[0]}, Bot {game.points[1]}")
        while table.to_move is not None:
            if table.to_move == 1:
                for event in game.bot_move():
                    write("  " + event_text(event, "Bot"))
                continue
            if not _your_move(game, table, read, write, hint):
                write("Game stopped.")
                return 1
        write(showdown_text(table, rules))
        game.finish_hand()
    final = game.score()
    write(f"\nGame over: {'you win' if final.winner == 0 else 'the bot wins'} "
          f"{final.scores[0]} to {final.scores[1]} (hand points {final.points[0]}-"
          f"{final.points[1]}, boxes {final.boxes[0]}-{final.boxes[1]}"
          f"{', shutout' if final.shutout else ''}).")
    return 0


def _your_move(game: TableGame, table: Table, read, write, hint: bool) -> bool:
    """Ask for your move until one is legal; False when you quit or input ended."""
    write(position_text(table, game.rules))
    if hint:
        write(hint_text(table, game.rules))
    view = table.observation(0)
    top = view["pile_top"]
    discards = [t.split()[1] for t in view["legal"] if t.startswith("discard ")]
    example = discards[-1] if discards else ""
    prompt = PROMPTS[table.phase]
    if table.phase == "draw" and "pile" not in view["legal"]:
        prompt = "draw: s (both passed the upcard, so the stock)"
    while True:
        line = read(f"  Your move ({prompt.format(top=top, example=example)}): ")
        if line is None or line.strip().lower() in ("q", "quit", "exit"):
            return False
        if line.strip().lower() in ("h", "hint", "?"):
            write(hint_text(table, game.rules))
            continue
        if len(line.strip()) > MAX_MOVE_CHARS:
            write(f"  Not allowed: {brief(line.strip(), 40)} ({len(line.strip()):,} "
                  f"characters) is no move: type stock (s), pile (p), a card such as KD, "
                  f"knock KD, take or pass. Try again.")
            continue
        try:
            events = game.apply(line)
        except IllegalAction as err:
            write(f"  Not allowed: {_clip(str(err))}. Try again.")
            continue
        for event in events:
            write("  " + event_text(event, "You"))
        return True



def _clip(text: str) -> str:
    """A refusal's reason on one line of at most :data:`MAX_ECHO_CHARS` characters."""
    text = " ".join(text.split())
    return text if len(text) <= MAX_ECHO_CHARS else text[:MAX_ECHO_CHARS - 3] + "..."
