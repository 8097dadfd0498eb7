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

from ..game.cards import card_from_text, card_text, mask_to_cards, sort_key
from ..game.inputs.specs import brief
from ..game.scoring.game_scoring import GameScore
from ..game.state import ST_TAKEN
from ..number_text import bracketed
from ..reports.hand_words import (
    event_text,
    gin_discards,
    hand_text,
    hint_advice,
    showdown_text,
)
from ..table.actions import ANY_MOVE, Action, IllegalAction
from ..table.game_table import TableGame
from ..table.table import Table

PROMPTS = {"offer": "take the upcard {top} or pass? [take/pass]",
           "draw": "draw: s (stock) or p (pile: {top})",
           "discard": "discard a card (e.g. {example}), knock CARD, or knock",
           "gin": "gin (discarding {gin}), discard a card (e.g. {example}), or knock CARD",
           "last_discard": "the final discard {top}: knock CARD with it, or pass"}
#: ``help`` at a prompt: every command, whatever the phase.
HELP = ("  Commands: s or stock (draw from the stock); p or pile (take the pile's top card); "
        "take or pass (the upcard offer, or the final discard); a card such as KD "
        "(discard it); knock KD (knock, discarding KD); knock (knock with the discard that "
        "keeps the least deadwood); gin KD or gin (go gin: knock with no deadwood, "
        "discarding KD or the card that allows it); big gin (where the rules have it); hint "
        "(the advisor's table); help (this list); quit (or Ctrl-D).")
#: The longest line read as a move (``knock 10D`` is nine characters): a longer one is
#: refused without being parsed, and a refusal never echoes more than MAX_ECHO_CHARS.
MAX_MOVE_CHARS = 40
MAX_ECHO_CHARS = 200


def _texts(cards: list[int]) -> list[str]:
    return [card_text(c) for c in cards]


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


def hint_text(table: Table, rules, bot: str, rollouts: int = 400,
              score: tuple[int, int] | None = None) -> str:
    """The advisor's table for the decision in front of you (:func:`hint_advice`), its
    title naming the opponent it assumes; with ``score``, each option's chance of
    winning the game beside its points. The best is marked "best" where its interval
    clears the next one's, "close" where it does not."""
    from ..analysis.advise import advice_words
    try:
        frame, model, note = hint_advice(table, rules, bot, rollouts, score=score)
    except ValueError as err:
        return f"  (no hint here: {err})"
    game = "game_win" in frame
    rows = [f"    {row.option:<24} "
            f"{bracketed(row.expected_points, row.low, row.high, '+.2f', '+6.2f', gap='  ')}"
            + (f"  game {row.game_win:6.1%}" if game else "")
            + ("  <= best" if row.recommended else "  <= close" if row.close else "")
            for row in frame.head(6).itertuples()]
    head = [f"  Advisor (against {model.spec}; expected points this hand, 95% CI"
            + (f"; your chance of winning the game at {score[0]}-{score[1]}" if game else "")
            + "):"]
    if note:
        head.append(f"  ({note})")
    return "\n".join([*head, *rows, "  " + advice_words(frame)])


def play_session(game: TableGame, read: Callable[[str], str | None],
                 write: Callable[[str], None], hint: bool = False,
                 before_hint: Callable[[], object] | None = None,
                 before_bot: Callable[[], object] | None = None,
                 before_move: Callable[[], object] | None = None) -> int:
    """Play ``game`` to its end reading your moves with ``read(prompt)`` (None: input
    ended) and showing it with ``write``; ``before_hint()`` runs before each hint (the
    advisor's kernels compiled or awaited), ``before_bot()`` before each bot move (its
    kernels awaited: a hand the bot opens shows your cards first), ``before_move()``
    before each of your moves is applied (the moves' kernels awaited). Returns 0 when the
    game was played out or input ended (Ctrl-D), 1 if you quit; either way
    :func:`stopped_text` says so."""
    rules = game.rules
    write(f"ginsim play: you against {game.bot_spec}, rules {rules.spec()}, "
          f"game to {rules.target}. Type 'hint' for advice, 'help' for the commands, "
          f"'quit' to stop.")
    for table in game.hands():
        dealer = "you" if table.dealer == 0 else "the bot"
        write(f"\nHand {game.hands_played + 1} (dealer: {dealer}); points You "
              f"{game.points[0]}, Bot {game.points[1]}")
        if table.to_move == 1:  # your cards while the bot thinks (or its kernels compile)
            write(f"  Your hand: {hand_text(table.hand_of(0), rules)}")
        while table.to_move is not None:
            if table.to_move == 1:
                if before_bot is not None:
                    before_bot()
                for event in game.bot_move():
                    write("  " + event_text(event, "Bot", _gin(table)))
                continue
            stop = _your_move(game, table, read, write, hint, before_hint, before_move)
            if stop is not None:
                write(stopped_text(game, stop))
                return 0 if stop == END_OF_INPUT else 1
        write(showdown_text(table, rules))
    write(game_over_text(game.score()))
    return 0


def _gin(table: Table) -> bool:
    """Whether the hand just ended in gin (its knock is said as gin)."""
    return table.phase == "over" and table.result()["outcome"] == "gin"


def game_over_text(final: GameScore) -> str:
    """The game's end, the winner's score first ("the bot wins 251 to 0")."""
    w = final.winner
    return (f"\nGame over: {'you win' if w == 0 else 'the bot wins'} {final.scores[w]} to "
            f"{final.scores[1 - w]} (hand points: you {final.points[0]}, bot {final.points[1]}; "
            f"boxes: you {final.boxes[0]}, bot {final.boxes[1]}"
            f"{'; shutout' if final.shutout else ''}).")


QUIT, END_OF_INPUT = "quit", "end of input"


def stopped_text(game: TableGame, how: str) -> str:
    """The line a game left before its end gets (``how``: :data:`QUIT`, or
    :data:`END_OF_INPUT`, Ctrl-D or a closed pipe): the one place that says how the game
    ended and what became of it."""
    said = "Game stopped" if how == QUIT else "Game ended: input closed"
    return (f"{said} after {game.hands_played} finished hand"
            f"{'' if game.hands_played == 1 else 's'}; points You {game.points[0]}, "
            f"Bot {game.points[1]}.")


def _your_move(game: TableGame, table: Table, read, write, hint: bool,
               before_hint: Callable[[], object] | None = None,
               before_move: Callable[[], object] | None = None) -> str | None:
    """Ask for your move until one is legal; :data:`QUIT` or :data:`END_OF_INPUT` when
    you quit or input ended, None once you moved."""
    write(position_text(table, game.rules))
    if hint:
        write(_hint(game, table, before_hint))
    prompt = move_prompt(table)
    while True:
        line = read(f"  Your move ({prompt}): ")
        if line is None:
            return END_OF_INPUT
        if line.strip().lower() in ("q", "quit", "exit"):
            return QUIT
        word = line.strip().lower()
        if word in ("help", "commands"):
            write(HELP)
            continue
        if word in ("h", "hint", "?"):
            write(_hint(game, table, before_hint))
            continue
        if before_move is not None:
            before_move()
        events = _try_move(game, table, line, write)
        if events is None:
            continue
        for event in events:
            write("  " + event_text(event, "You", _gin(table)))
        return None


def _hint(game: TableGame, table: Table, before_hint: Callable[[], object] | None) -> str:
    if before_hint is not None:
        before_hint()
    score = game_score(game)
    if score is not None:
        from ..analysis.game_stats import advice_game_table
        from ..runner.kernels.waiting import Ticker

        with Ticker("  the game table for the hint's game chances (once per rules)"):
            advice_game_table(game.rules)
    return hint_text(table, game.rules, game.bot_spec, score=score)


def game_score(game: TableGame) -> tuple[int, int] | None:
    """The game's score now (yours, the bot's) for the hint, while both are below the
    target (None once the game is decided)."""
    mine, theirs = game.points
    return (mine, theirs) if max(mine, theirs) < game.rules.target else None


def move_prompt(table: Table) -> str:
    """The prompt's words for the phase, naming only the moves open now (no knock where
    no discard keeps deadwood within the knock limit, gin where a discard allows it, no
    pile after both passed)."""
    view = table.observation(0)
    legal = view["legal"]
    discards = [t.split()[1] for t in legal if t.startswith("discard ")]
    prompt = PROMPTS[table.phase]
    if table.phase == "draw" and "pile" not in legal:
        prompt = "draw: s (both passed the upcard, so the stock)"
    gin = gin_discards(table)
    if table.phase == "discard" and gin:
        prompt = PROMPTS["gin"]
    elif table.phase == "discard" and not any(t.startswith("knock") for t in legal):
        prompt = "discard a card (e.g. {example})"
    return prompt.format(top=view["pile_top"], example=discards[-1] if discards else "",
                         gin=" or ".join(gin))


def _gin_action(table: Table, words: list[str]) -> Action:
    """``gin`` or ``gin KD`` as the knock it is, refused unless it leaves no deadwood."""
    if table.phase not in ("discard", "last_discard"):
        raise IllegalAction("gin: go gin after drawing, discarding one of your 11 cards")
    if len(words) > 1:
        raise IllegalAction(f"{' '.join(words)!r} is not an action: type gin, or gin and "
                            "the card to discard (gin KD)")
    gin = gin_discards(table)
    if words:
        try:
            card = card_text(card_from_text(words[0]))
        except ValueError as err:
            raise IllegalAction(f"gin {words[0]!r}: {err}") from None
        if card not in gin:
            raise IllegalAction(f"gin {card}: discarding {card} leaves deadwood; gin needs "
                                "none" + (f" (gin {' or gin '.join(gin)} does it)" if gin
                                          else ""))
    elif not gin:
        raise IllegalAction("gin: no discard leaves you without deadwood; knock CARD "
                            "knocks with some, where the knock limit allows")
    else:
        card = gin[0]
    return Action("knock", card_from_text(card))


def _try_move(game: TableGame, table: Table, line: str, write) -> list[dict] | None:
    """Your move applied (its events), or None after a refusal that names the moves
    open now (not every move of the game)."""
    now = f"now: {move_prompt(table)} ('help' lists every command). Try again."
    if len(line.strip()) > MAX_MOVE_CHARS:
        write(f"  Not allowed: {brief(line.strip(), 40)} ({len(line.strip()):,} "
              f"characters) is no move; {now}")
        return None
    words = line.split()
    try:
        if words and words[0].lower() == "gin":
            return game.apply(_gin_action(table, words[1:]))
        return game.apply(Action.parse(line))
    except IllegalAction as err:
        write(f"  Not allowed: {_clip(str(err).replace(': ' + ANY_MOVE, ''))}; {now}")
        return None



def _clip(text: str) -> str:
    """A refusal's reason on one line of at most :data:`MAX_ECHO_CHARS` characters."""
    text = " ".join(text.split())
    return text if len(text) <= MAX_ECHO_CHARS else text[:MAX_ECHO_CHARS - 3] + "..."
