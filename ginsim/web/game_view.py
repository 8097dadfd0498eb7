"""What the page shows of a game, as JSON: seat 0's side of the table (the hand sorted
with its melds grouped, the pile top, the cards the bot took from the pile, the stock,
the score, the moves open now), the hand's moves and showdown in words, the advisor's
table and the knock card for the rules played."""

from __future__ import annotations

from functools import cache

from ..analysis.advise import advice_words
from ..analysis.knock.equilibrium import equilibrium_advice
from ..analysis.knock.knock_card import EITHER_LEFT_OUT, card_words
from ..game.cards import card_text, mask_to_cards, sort_key
from ..game.rulebook.rules_in_words import hand_limit_words
from ..game.rules import Rules
from ..game.state import ST_TAKEN
from ..reports.card_chart import LEGEND, card_panels, card_title
from ..reports.hand_words import gin_discards, hand_groups, showdown_text
from ..strategies.charts.equilibria import KNOCKING_PRESETS
from ..strategies.players import PLAYERS
from ..table.game_table import TableGame
from ..table.table import Table

#: The bots the page's ``Bot`` select offers (any other strategy spec may be typed).
BOT_CHOICES = tuple(p.name for p in PLAYERS)
#: The rules the page's ``Rules`` select offers: every preset the Table plays.
RULES_CHOICES = KNOCKING_PRESETS
#: What the page asks for in each phase when it is your move.
PAGE_PROMPTS = {"offer": "Take the upcard {top} or pass.",
           "draw": "Draw: Stock, or Pile ({top}).",
           "draw_stock": "Draw from the Stock (both passed the upcard).",
           "discard": "Discard a card: press it. To knock, press Knock, then the card.",
           "discard_only": "Discard a card: press it.",
           "last_discard": "The final discard {top}: press Knock then a card to take it and "
                           "knock, or Pass."}


def seat_view(table: Table) -> dict:
    """Seat 0's side of the table: hand (melds grouped, the rest sorted), deadwood, pile
    top and size, the cards the bot took from the pile and holds, stock left, knock
    limit, multiplier and the card just drawn."""
    view = table.observation(0)
    melds, loose, deadwood = hand_groups(view["hand"], table.rules)
    took = [card_text(c) for c in sorted(mask_to_cards(int(table.hs[ST_TAKEN + 1])),
                                          key=sort_key)]
    drawn = None
    if table.phase == "discard" and table.events and table.events[-1]["seat"] == 0 and (
            table.events[-1]["action"] in ("stock", "pile", "take")):
        drawn = table.events[-1]["card"]
    return {"melds": melds, "loose": loose, "deadwood": deadwood,
            "pile_top": view["pile_top"], "pile_size": len(view["pile"]),
            "opponent_took": took, "stock_left": view["stock_left"],
            "knock_limit": view["knock_limit"], "multiplier": view["multiplier"],
            "knock_words": hand_limit_words(table.rules, int(view["knock_limit"])),
            "drawn": drawn, "phase": table.phase, "dealer": table.dealer}


def moves_open(table: Table) -> dict:
    """The moves open to seat 0 now, as the page's buttons: ``draw`` (stock, pile),
    ``offer`` (take, pass), ``discard``/``knock``/``gin`` (card texts), ``big_gin``,
    ``pass`` (the final discard), and the prompt in words; empty when not its move."""
    if table.to_move != 0:
        return {"buttons": [], "discard": [], "knock": [], "gin": [], "prompt": ""}
    legal = table.observation(0)["legal"]
    cards = {kind: [t.split()[1] for t in legal if t.startswith(kind + " ")]
             for kind in ("discard", "knock")}
    buttons = [t for t in ("stock", "pile", "take", "pass") if t in legal]
    if "big gin" in legal:
        buttons.append("big_gin")
    phase = table.phase
    if phase == "draw" and "pile" not in legal:
        phase = "draw_stock"
    elif phase == "discard" and not cards["knock"]:
        phase = "discard_only"
    top = table.observation(0)["pile_top"]
    return {"buttons": buttons, **cards, "gin": gin_discards(table),
            "prompt": PAGE_PROMPTS[phase].format(top=top)}


def state_message(game: TableGame, game_id: str, log: list[str], record: str,
                  version: int) -> dict:
    """The page's whole picture of ``game``: the table, the moves open, this hand's
    moves in words, the showdown once the hand is over, the score, the game's end."""
    table = game.table
    over = table.to_move is None
    out = {"type": "state", "game": game_id, "version": version, "bot": game.bot_spec,
           "rules": game.rules.spec(), "target": game.rules.target,
           "hand_number": game.hands_played + (0 if over else 1),
           "score": {"you": game.points[0], "bot": game.points[1]},
           "table": seat_view(table), "moves": moves_open(table), "log": list(log),
           "hand_over": over, "showdown": [], "game_over": "", "record": record}
    if over:
        out["showdown"] = [line.strip() for line in showdown_text(table, game.rules)
                           .splitlines() if line.strip() and line.strip() != "Showdown:"]
    if game.over:
        out["game_over"] = game_over_words(game)
    return out


def game_over_words(game: TableGame) -> str:
    """The game's end, the winner's score first ("The bot wins 251 to 0 ...")."""
    if not game.tally.over:
        return (f"The game stopped after {game.hands_played} hands without a winner "
                f"(points you {game.points[0]}, bot {game.points[1]}).")
    final = game.score()
    w = final.winner
    return (f"Game over: {'you win' if w == 0 else 'the bot wins'} {final.scores[w]} to "
            f"{final.scores[1 - w]} (hand points: you {final.points[0]}, bot "
            f"{final.points[1]}; boxes: you {final.boxes[0]}, bot {final.boxes[1]}"
            f"{'; shutout' if final.shutout else ''}).")


def hint_message(frame, model, note: str, game_id: str, version: int) -> dict:
    """The advisor's table as the page shows it: each option's expected points this
    hand with its 95% interval, the chance of winning the game (where the advisor gives
    it), whether it is the best, close to the best (the intervals overlap) or clearly
    recommended; the opponent it assumes, and its advice in words."""
    has_win = "game_win" in frame.columns
    rows = [{"option": r.option, "action": r.action,
             "card": r.discard or None, "expected_points": float(r.expected_points),
             "low": float(r.low), "high": float(r.high),
             "game_win": float(r.game_win) if has_win else None,
             "best": bool(getattr(r, "best", r.Index == 0)),
             "close": bool(getattr(r, "close", False)),
             "recommended": bool(r.recommended)} for r in frame.itertuples()]
    return {"type": "hint", "game": game_id, "version": version, "opponent": model.spec,
            "note": note, "rows": rows, "words": advice_words(frame),
            "game_win": has_win}


@cache
def knock_card_message(rules_spec: str) -> dict:
    """The knock card for the rules played, as tables: one panel per pile cards the
    opponent has taken, rows deadwood, columns cards left in the stock, cells KNOCK,
    wait or either; its title, its words and its legend. No panels where no chart ships
    for these rules."""
    rules = Rules.coerce(rules_spec)
    advice = None if rules.mahjong else equilibrium_advice(rules)
    title = card_title(rules).removeprefix("Knock card: ").replace("\n", ": ", 1)
    if advice is None:
        return {"type": "knock_card", "rules": rules_spec, "title": title, "panels": [],
                "words": "No knock card ships for these rules.", "legend": ""}
    panels = [{"title": name, "columns": [str(c) for c in grid.columns],
               "rows": [[str(d), *[str(v) for v in grid.loc[d]]] for d in grid.index]}
              for name, grid in card_panels(advice.card)]
    words = card_words(advice.card)
    return {"type": "knock_card", "rules": rules_spec, "title": title, "panels": panels,
            "words": words[:1].upper() + words[1:] + ".",
            "legend": f"{LEGEND} {EITHER_LEFT_OUT}", "source": advice.source}
