"""Words a report defines once: who the players are, the rules in force as sentences, and
the glossary.

The full rule book is docs/rules.md in the ginsim repository.
"""

from __future__ import annotations

import pandas as pd

from ..game.rules import Rules
from ..number_text import signed
from ..strategies.players import PLAYERS, STRENGTH_DOC
from .builder import Section
from .text import header

RULE_BOOK = "docs/rules.md"

GLOSSARY = (
    ("Deadwood", "The points of the cards that are in no meld (ace 1, two to ten at face "
                 "value, jack, queen and king 10). A hand's deadwood is the lowest total over "
                 "every way of splitting it into melds."),
    ("Knock", "Ending the hand after discarding, by laying your melds down while your "
              "deadwood is at most the knock limit. You score the difference between the "
              "defender's deadwood and yours."),
    ("Gin", "Knocking with no deadwood at all. It earns the gin bonus, cannot be undercut, "
            "and the defender may not lay off."),
    ("Big gin", "All eleven cards melded right after the draw, laid down without a discard; "
                "scored only where the rules turn it on."),
    ("Undercut", "After a knock, the defender's deadwood (after layoffs) is lower than the "
                 "knocker's, or equal where a tie counts: the defender scores the difference "
                 "plus the undercut bonus."),
    ("Layoff", "The defender adding an unmelded card to one of the knocker's melds (a fourth "
               "card to a set, or extending a run), so that it no longer counts."),
    ("Box", "A bonus for each hand a player won, added when the game is over; it does not "
            "count toward the game's target."),
    ("Shutout", "Winning a game in which the loser won no hand at all; modern rules add a "
                "bonus, classic rules double the winner's total."),
    ("Dead hand", "The stock runs down to its last cards without a knock: nobody scores and "
                  "the same dealer deals again."),
)

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_LAYOFFS = {
    "optimal": "The defender lays off cards on the knocker's melds in whichever way leaves "
               "it the least deadwood (no layoffs against gin).",
    "melds_first": "The defender makes its own melds first, then lays off what fits the "
                   "knocker's melds (no layoffs against gin).",
    "layoffs_first": "The defender lays off every card that fits the knocker's melds first, "
                     "then melds the rest (no layoffs against gin).",
    "two_orders": "The defender lays off in the better of two orders: its own melds first, "
                  "or layoffs first (no layoffs against gin).",
}
_DEALS = {"upcard": "Ten cards each; the card turned up beside the stock (the upcard) is "
                    "offered to the non-dealer first, then to the dealer.",
          "eleven": "The non-dealer gets eleven cards and starts by discarding; there is no "
                    "upcard."}
_NEXT_DEALER = {"loser": "The loser of a hand deals the next one.",
                "winner": "The winner of a hand deals the next one.",
                "alternate": "The players take turns to deal."}
_SHUTOUT = {"bonus": "A shutout (the loser won no hand) adds {bonus} more to the winner.",
            "double": "A shutout (the loser won no hand) doubles the winner's total.",
            "none": "A shutout (the loser won no hand) earns nothing extra."}


def _fields(rules: Rules, *names: str) -> str:
    """The fields a sentence states, as a rules spec writes them (``knock_limit=10``)."""
    def text(value: object) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        return "none" if value is None else str(value)

    return ", ".join(f"{name}={text(getattr(rules, name))}" for name in names)


def rule_sentences(rules: Rules) -> list[tuple[str, str]]:
    """Every rule in force as a sentence a player knows ("Knock with 10 or less
    deadwood."), each with the spec fields it states; Oklahoma's and Mahjong's rules only
    when those are on, none of the team and multi-match systems (no study plays them).
    The report's rules table and ``ginsim rules RULES`` print these."""
    ending = _mahjong_sentences(rules) if rules.mahjong else _knock_sentences(rules)
    return [*ending, *_deal_sentences(rules), *_game_sentences(rules)]


def _mahjong_sentences(rules: Rules) -> list[tuple[str, str]]:
    """How a hand of Mahjong gin ends and scores."""
    out = ("with a final discard." if rules.mahjong_discard_to_go_out else
           "by melding or laying off every card, with or without a final discard.")
    counted = ("after the loser melds what it can." if rules.mahjong_final_meld else
               "(every card in it counts).")
    return [(f"No knocking (Mahjong gin): a pile take may reach down several cards, melds "
             f"go face up on the table and either player may extend them; a player goes "
             f"out {out}", _fields(rules, "mahjong", "mahjong_discard_to_go_out")),
            (f"Going out scores {rules.gin_bonus} plus the cards left in the loser's hand "
             f"{counted}", _fields(rules, "gin_bonus", "mahjong_final_meld"))]


def _knock_sentences(rules: Rules) -> list[tuple[str, str]]:
    """When a hand may end by a knock or gin, and what each scores."""
    if rules.oklahoma:
        ace = ("an ace means gin only" if rules.aces_must_gin else
               "an ace lets you knock with 1")
        limit = (f"The upcard sets the knock limit: knock with deadwood up to its number "
                 f"(a 7: 7 or less; a jack, queen or king: 10); {ace}.",
                 _fields(rules, "oklahoma", "aces_must_gin"))
    elif rules.knock_limit == 0:
        limit = ("No knocking: straight gin, a hand ends only with gin.",
                 _fields(rules, "knock_limit"))
    else:
        limit = (f"Knock with {rules.knock_limit} or less deadwood.",
                 _fields(rules, "knock_limit"))
    tie = ("at or below the knocker's" if rules.undercut_on_tie else
           "below the knocker's (a tie is no undercut)")
    big = ("No big gin: eleven melded cards still discard one and go gin." if
           rules.big_gin_bonus is None else
           f"Big gin (all eleven cards melded after the draw, laid down without a discard) "
           f"scores the defender's deadwood plus a bonus of {rules.big_gin_bonus}.")
    out = [limit,
           (f"Gin (no deadwood at all) scores the defender's deadwood plus a gin bonus of "
            f"{rules.gin_bonus}.", _fields(rules, "gin_bonus")),
           (big, _fields(rules, "big_gin_bonus"))]
    if rules.knocks:  # straight gin has no knock to undercut or lay off against
        out[2:2] = [(f"The defender undercuts when its deadwood, after layoffs, is {tie}: it "
                     f"scores the difference plus an undercut bonus of {rules.undercut_bonus}.",
                     _fields(rules, "undercut_bonus", "undercut_on_tie")),
                    (_LAYOFFS[rules.layoff], _fields(rules, "layoff"))]
    if rules.oklahoma:
        suits = [SUIT_NAMES[s] for s in rules.double_suits.upper()]
        out.append((f"An upcard of {' or '.join(suits)} doubles the hand's score." if suits
                    else "No upcard doubles the hand's score.", _fields(rules, "double_suits")))
    return out


def _deal_sentences(rules: Rules) -> list[tuple[str, str]]:
    """The deal, the cards' values, the runs and the end of the stock."""
    wrap = ("Runs may turn the corner (Q-K-A and K-A-2)." if rules.run_wrap else
            "Runs do not turn the corner: the ace is low (A-2-3, never K-A-2).")
    cards = "card" if rules.stock_floor == 1 else "cards"
    last = (" At that point the final discard may be taken only to knock or go gin with it "
            "(the 50th-card rule)." if rules.last_discard_rule else "")
    return [(_DEALS[rules.deal], _fields(rules, "deal")),
            (f"An unmelded ace counts {rules.ace_value}, a jack, queen or king "
             f"{rules.court_value}, any other card its number.",
             _fields(rules, "ace_value", "court_value")),
            (wrap, _fields(rules, "run_wrap")),
            (f"The hand is dead (nobody scores, the same dealer deals again) once the stock "
             f"is down to {rules.stock_floor} {cards}.{last}",
             _fields(rules, "stock_floor", "last_discard_rule"))]


def _game_sentences(rules: Rules) -> list[tuple[str, str]]:
    """How a game is won and scored, and who deals next."""
    reach = (f"A game ends when a player reaches {rules.target} points" if rules.target > 1
             else "A game is a single hand")
    out = [(f"{reach}; the winner adds a game bonus of {rules.game_bonus} and a box of "
            f"{rules.box_bonus} for each hand won.",
            _fields(rules, "target", "game_bonus", "box_bonus")),
           (_SHUTOUT[rules.shutout].format(bonus=rules.shutout_bonus),
            _fields(rules, "shutout", *(("shutout_bonus",) if rules.shutout == "bonus"
                                        else ())))]
    if rules.oklahoma:
        out.append(("An undercut is worth 2 boxes and gin 3, doubled again on a doubling "
                    "upcard." if rules.oklahoma_boxes else
                    "Every hand won is worth one box, gin and undercuts too.",
                    _fields(rules, "oklahoma_boxes")))
    out.append((_NEXT_DEALER[rules.next_dealer], _fields(rules, "next_dealer")))
    return out


def rules_table(rules: Rules) -> pd.DataFrame:
    """The rules in force as a table: ``rule`` (a sentence, :func:`rule_sentences`) and
    ``fields`` (the spec fields it states)."""
    return pd.DataFrame(rule_sentences(rules), columns=["rule", "fields"])


def players_table(matrix: pd.DataFrame | None = None) -> pd.DataFrame:
    """Who the five players are (:data:`~ginsim.strategies.players.PLAYERS`): ``player``,
    ``what it does``, ``how strong`` and ``measured``. A player the report's strategies
    study played (``matrix``: its strategy matrix) shows its paired points a hand from
    this run, against ``simple`` where it played it (else its first opponent); the others
    the games to 100 they won against ``simple``, as docs/strength.md measured them."""
    rows = []
    for player in PLAYERS:
        mine = (matrix[matrix["strategy"] == player.name] if matrix is not None
                and not matrix.empty else pd.DataFrame())
        if len(mine):
            row = mine.sort_values("opponent", key=lambda o: o != "simple").iloc[0]
            rows.append((player.name, player.does,
                         f"{signed(row['mean'])} points a hand against {row['opponent']} "
                         f"(95% CI {signed(row['low'])} to {signed(row['high'])}; "
                         f"{int(row['n']) // 2:,} duplicate deals)",
                         "this report: Strategies against opponents"))
        else:
            rows.append((player.name, player.does, player.strength,
                         f"{STRENGTH_DOC}: {player.command}"))
    return pd.DataFrame(rows, columns=["player", "what it does", "how strong", "measured"])


def players_section(matrix: pd.DataFrame | None = None) -> Section:
    """The report's "Who are these players" section: :func:`players_table`."""
    players = players_table(matrix)
    return Section("Who are these players", "The players this lab names most, in a sentence "
                   "each, and how strong each is: measured in this report where its "
                   f"strategies study played it, else as {STRENGTH_DOC} measured it.",
                   table=players, table_name="players", shown=players.rename(columns=header))
