"""``ginsim play``: a game against a bot in the terminal (docs/table.md).

The game is :class:`~ginsim.table.game_table.TableGame`; this module only shows it
(your hand sorted with its best melds, the pile top, the stock, what the bot did, the
showdown, the scores) and reads your moves, one line each: ``s`` / ``p`` to draw,
``KD`` to discard, ``knock KD`` or ``knock``, ``take`` / ``pass`` at the upcard offer,
``hint`` for the advisor's table, ``help`` for the commands, ``quit`` to stop. A move
the hand does not allow gets its one-line reason, the moves open now and another try.
"""

from __future__ import annotations

from collections.abc import Callable

from ..game.cards import card_from_text, card_text, cards_to_mask, mask_to_cards, sort_key
from ..game.inputs.specs import brief
from ..game.melds import best_melds, deadwood
from ..game.scoring.game_scoring import GameScore
from ..game.state import ST_TAKEN
from ..table.actions import ANY_MOVE, Action, IllegalAction
from ..table.game_table import TableGame
from ..table.table import Table

PROMPTS = {"offer": "take the upcard {top} or pass? [take/pass]",
           "draw": "draw: s (stock) or p (pile: {top})",
           "discard": "discard a card (e.g. {example}), knock CARD, or knock",
           "last_discard": "the final discard {top}: knock CARD with it, or pass"}
#: ``help`` at a prompt: every command, whatever the phase.
HELP = ("  Commands: s or stock (draw from the stock); p or pile (take the pile's top card); "
        "take or pass (the upcard offer, or the final discard); a card such as KD "
        "(discard it); knock KD (knock, discarding KD); knock (knock with the discard that "
        "keeps the least deadwood); big gin (where the rules have it); hint (the advisor's "
        "table); help (this list); quit.")
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


def hint_advice(table: Table, rules, bot: str, rollouts: int = 400, seed: int = 0):
    """The advisor's table (``ginsim.advise``) for seat 0's decision now, against the
    bot played (``bot``, its spec: its card play and knock chart; an mc bot by the plain
    strategy it plays on with) and read by the same model: ``(table, model, note)``,
    ``note`` saying where the model is not the bot itself. ValueError where there is
    nothing to advise (the first discard of the eleven-card deal) or the advisor
    refuses the position."""
    from ..analysis.advise import advise, opponent_model
    model, note = opponent_model(bot)
    hand = table.hand_of(0)
    drawn = None
    if table.phase == "discard" and table.events and table.events[-1]["seat"] == 0 and (
            table.events[-1]["action"] in ("stock", "pile", "take")):
        drawn = table.events[-1]["card"]
        hand = [c for c in hand if c != card_from_text(drawn)]
    if table.phase == "discard" and drawn is None:
        raise ValueError("the first discard of the eleven-card deal follows no draw, and "
                         "the advisor weighs a discard after a draw")
    frame = advise(_hand_str(hand), drawn=drawn, history=table.history(0), rules=rules,
                   opponent=model, rollouts=rollouts, seed=seed)
    return frame, model, note


def hint_text(table: Table, rules, bot: str, rollouts: int = 400) -> str:
    """The advisor's table for the decision in front of you (:func:`hint_advice`), its
    title naming the opponent it assumes."""
    from ..analysis.advise import advice_words
    try:
        frame, model, note = hint_advice(table, rules, bot, rollouts)
    except ValueError as err:
        return f"  (no hint here: {err})"
    rows = [f"    {row.option:<24} {row.expected_points:+6.2f}  [{row.low:+.2f}, {row.high:+.2f}]"
            for row in frame.head(6).itertuples()]
    head = [f"  Advisor (against {model.spec}; expected points this hand, 95% CI):"]
    if note:
        head.append(f"  ({note})")
    return "\n".join([*head, *rows, "  " + advice_words(frame)])


def _hand_str(cards: list[int]) -> str:
    return " ".join(_texts(sorted(cards, key=sort_key)))


def play_session(game: TableGame, read: Callable[[str], str | None],
                 write: Callable[[str], None], hint: bool = False,
                 before_hint: Callable[[], object] | None = None) -> int:
    """Play ``game`` to its end reading your moves with ``read(prompt)`` (None: input
    ended) and showing it with ``write``; ``before_hint()`` runs before each hint (the
    advisor's kernels compiled or awaited). Returns 0 when the game was played out, 1
    if you quit."""
    rules = game.rules
    write(f"ginsim play: you against {game.bot_spec}, rules {rules.spec()}, "
          f"game to {rules.target}. Type 'hint' for advice, 'help' for the commands, "
          f"'quit' to stop.")
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
            if not _your_move(game, table, read, write, hint, before_hint):
                write("Game stopped.")
                return 1
        write(showdown_text(table, rules))
        game.finish_hand()
    write(game_over_text(game.score()))
    return 0


def game_over_text(final: GameScore) -> str:
    """The game's end, the winner's score first ("the bot wins 251 to 0")."""
    w = final.winner
    return (f"\nGame over: {'you win' if w == 0 else 'the bot wins'} {final.scores[w]} to "
            f"{final.scores[1 - w]} (hand points: you {final.points[0]}, bot {final.points[1]}; "
            f"boxes: you {final.boxes[0]}, bot {final.boxes[1]}"
            f"{'; shutout' if final.shutout else ''}).")


def _your_move(game: TableGame, table: Table, read, write, hint: bool,
               before_hint: Callable[[], object] | None = None) -> bool:
    """Ask for your move until one is legal; False when you quit or input ended."""
    write(position_text(table, game.rules))
    if hint:
        write(_hint(game, table, before_hint))
    prompt = move_prompt(table)
    while True:
        line = read(f"  Your move ({prompt}): ")
        if line is None or line.strip().lower() in ("q", "quit", "exit"):
            return False
        word = line.strip().lower()
        if word in ("help", "commands"):
            write(HELP)
            continue
        if word in ("h", "hint", "?"):
            write(_hint(game, table, before_hint))
            continue
        events = _try_move(game, table, line, write)
        if events is None:
            continue
        for event in events:
            write("  " + event_text(event, "You"))
        return True


def _hint(game: TableGame, table: Table, before_hint: Callable[[], object] | None) -> str:
    if before_hint is not None:
        before_hint()
    return hint_text(table, game.rules, game.bot_spec)


def move_prompt(table: Table) -> str:
    """The prompt's words for the phase, naming only the moves open now (no knock where
    no discard keeps deadwood within the knock limit, no pile after both passed)."""
    view = table.observation(0)
    legal = view["legal"]
    discards = [t.split()[1] for t in legal if t.startswith("discard ")]
    prompt = PROMPTS[table.phase]
    if table.phase == "draw" and "pile" not in legal:
        prompt = "draw: s (both passed the upcard, so the stock)"
    if table.phase == "discard" and not any(t.startswith("knock") for t in legal):
        prompt = "discard a card (e.g. {example})"
    return prompt.format(top=view["pile_top"], example=discards[-1] if discards else "")


def _try_move(game: TableGame, table: Table, line: str, write) -> list[dict] | None:
    """Your move applied (its events), or None after a refusal that names the moves
    open now (not every move of the game)."""
    now = f"now: {move_prompt(table)} ('help' lists every command). Try again."
    if len(line.strip()) > MAX_MOVE_CHARS:
        write(f"  Not allowed: {brief(line.strip(), 40)} ({len(line.strip()):,} "
              f"characters) is no move; {now}")
        return None
    try:
        return game.apply(Action.parse(line))
    except IllegalAction as err:
        write(f"  Not allowed: {_clip(str(err).replace(': ' + ANY_MOVE, ''))}; {now}")
        return None



def _clip(text: str) -> str:
    """A refusal's reason on one line of at most :data:`MAX_ECHO_CHARS` characters."""
    text = " ".join(text.split())
    return text if len(text) <= MAX_ECHO_CHARS else text[:MAX_ECHO_CHARS - 3] + "..."
