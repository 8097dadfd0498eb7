"""The one place rules become words: the rules' name, the short phrase of the numbers
that decide knocking (a report's, an answer's, a knock card's), Oklahoma's upcard limit,
and every rule in force as a sentence a player knows (the report's rules table and
``ginsim rules RULES``). The full rule book is docs/rules.md in the ginsim repository.
"""

from __future__ import annotations

from ..inputs.specs import spec_values
from ..rules import Rules

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}

#: How a hand may end, by :func:`hand_ending`: (the short phrase, the sentence).
ENDINGS = {
    "mahjong": ("Mahjong gin: no knocking, several pile cards may be taken, melds on the table",
                "No knocking (Mahjong gin): a pile take may reach down several cards, melds "
                "go face up on the table and either player may extend them; a player goes "
                "out {out}"),
    "oklahoma": ("the upcard sets the knock limit",
                 "The upcard sets the knock limit: knock with deadwood up to its number "
                 "(a 7: 7 or less; a jack, queen or king: 10); {ace}."),
    "straight": ("no knocking, gin only", "No knocking: straight gin, a hand ends only with gin."),
    "knock": ("knock at {limit} or less", "Knock with {limit} or less deadwood."),
}
#: The bonuses and the tie rule in each short phrase's style: (gin, undercut, a tie
#: undercuts, a tie does not).
TERMS = {
    "words": ("gin bonus", "undercut bonus", "a tie counts as an undercut",
              "a tie is no undercut"),
    "brief": ("gin", "undercut", "ties undercut", "ties do not undercut"),
    "card": ("gin", "undercut", "a tie undercuts", "a tie is no undercut"),
}
#: What an Oklahoma ace upcard allows: (the rule's sentence, the answer's), aces gin first.
ACE_UPCARD = (("an ace means gin only", "gin only"),
              ("an ace lets you knock with 1", "knock at 1"))
LAYOFFS = {
    "optimal": "The defender lays off cards on the knocker's melds in whichever way leaves "
               "it the least deadwood (no layoffs against gin).",
    "melds_first": "The defender makes its own melds first, then lays off what fits the "
                   "knocker's melds (no layoffs against gin).",
    "layoffs_first": "The defender lays off every card that fits the knocker's melds first, "
                     "then melds the rest (no layoffs against gin).",
    "two_orders": "The defender lays off in the better of two orders: its own melds first, "
                  "or layoffs first (no layoffs against gin).",
}
DEALS = {"upcard": "Ten cards each; the card turned up beside the stock (the upcard) is "
                   "offered to the non-dealer first, then to the dealer.",
         "eleven": "The non-dealer gets eleven cards and starts by discarding; there is no "
                   "upcard."}
NEXT_DEALER = {"loser": "The loser of a hand deals the next one.",
               "winner": "The winner of a hand deals the next one.",
               "alternate": "The players take turns to deal."}
SHUTOUT = {"bonus": "A shutout (the loser won no hand) adds {bonus} more to the winner.",
           "double": "A shutout (the loser won no hand) doubles the winner's total.",
           "none": "A shutout (the loser won no hand) earns nothing extra."}


def preset_words(preset: str) -> str:
    """A preset's name in words (``big_gin`` reads "big gin")."""
    return preset.replace("_", " ")


def rules_name(rules: Rules) -> str:
    """The rules' name in words: "big gin rules" for a preset, "modern rules with
    undercut bonus 10" for a preset with fields changed."""
    preset, changes = spec_values(rules.spec())
    words = preset_words(preset) + " rules"
    if changes:
        words += " with " + ", ".join(f"{key} {value}".replace("_", " ")
                                      for key, value in changes.items())
    return words


def hand_ending(rules: Rules) -> str:
    """How a hand may end, a key of :data:`ENDINGS`: "mahjong" (going out), "oklahoma"
    (the upcard sets the knock limit), "straight" (gin only) or "knock"."""
    if rules.mahjong:
        return "mahjong"
    if rules.oklahoma:
        return "oklahoma"
    return "straight" if rules.knock_limit == 0 else "knock"


def _knock_terms(rules: Rules, style: str) -> list[str]:
    """The knock limit, the gin and undercut bonuses and the tie rule in a style of
    :data:`TERMS`; rules without a knock (straight, Mahjong gin) have no undercut."""
    gin, undercut, ties, no_ties = TERMS[style]
    ending = hand_ending(rules)
    terms = [ENDINGS[ending][0].format(limit=rules.knock_limit), f"{gin} {rules.gin_bonus}"]
    if ending in ("straight", "mahjong"):
        return terms
    return [*terms, f"{undercut} {rules.undercut_bonus}",
            ties if rules.undercut_on_tie else no_ties]


def rules_brief(rules: Rules) -> str:
    """The rules in a short phrase with the numbers that decide knocking, e.g. "modern
    rules (knock at 10 or less, gin 25, undercut 25, ties undercut)"."""
    return rules_words(rules, brief=True)


def rules_words(rules: Rules, brief: bool = False) -> str:
    """The rules that decide when to knock, in a short phrase: the rules' name (a preset,
    or a preset and the fields changed), the knock limit, the gin and undercut bonuses
    and the tie rule (``brief``: "gin 25", "ties undercut")."""
    parts = _knock_terms(rules, "brief" if brief else "words")
    if rules.big_gin_bonus is not None:
        parts.append(f"big gin {rules.big_gin_bonus}")
    if rules.deal == "eleven":
        parts.append("eleven-card deal")
    return f"{rules_name(rules)} ({', '.join(parts)})"


def knock_terms(rules: Rules) -> str:
    """The numbers that decide knocking as a knock card's title states them: "knock at
    10 or less, gin 25, undercut 25, a tie undercuts"."""
    return ", ".join(_knock_terms(rules, "card"))


def hand_limit_words(rules: Rules, knock_limit: int) -> str:
    """This hand's knock limit in words: "knock at 7 or less", or where no knock is
    possible, how the hand ends instead (straight gin, an Oklahoma ace, Mahjong gin)."""
    if rules.mahjong:
        return "no knocking: go out"
    if knock_limit <= 0:
        return "no knocking: gin only"
    return ENDINGS["knock"][0].format(limit=knock_limit)


def upcard_words(rules: Rules) -> str:
    """Oklahoma-style rules' knock limit in one sentence: the upcard's value."""
    ace = ACE_UPCARD[not rules.aces_must_gin][1]
    return f"Your knock limit is the upcard's value (an ace: {ace})."


def no_knocking(spec: str) -> str:
    """Why rules without a knock (straight or Mahjong gin) have no knock decision, the
    rules as the user gave them: "rules straight allow no knocking (gin only)"."""
    return f"rules {spec} allow no knocking (gin only)"


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
    return [(ENDINGS["mahjong"][1].format(out=out),
             _fields(rules, "mahjong", "mahjong_discard_to_go_out")),
            (f"Going out scores {rules.gin_bonus} plus the cards left in the loser's hand "
             f"{counted}", _fields(rules, "gin_bonus", "mahjong_final_meld"))]


def _knock_sentences(rules: Rules) -> list[tuple[str, str]]:
    """When a hand may end by a knock or gin, and what each scores."""
    ending = hand_ending(rules)
    limit = ENDINGS[ending][1].format(limit=rules.knock_limit,
                                      ace=ACE_UPCARD[not rules.aces_must_gin][0])
    limit_fields = (("oklahoma", "aces_must_gin") if ending == "oklahoma" else
                    ("knock_limit",))
    tie = ("at or below the knocker's" if rules.undercut_on_tie else
           "below the knocker's (a tie is no undercut)")
    big = ("No big gin: eleven melded cards still discard one and go gin." if
           rules.big_gin_bonus is None else
           f"Big gin (all eleven cards melded after the draw, laid down without a discard) "
           f"scores the defender's deadwood plus a bonus of {rules.big_gin_bonus}.")
    out = [(limit, _fields(rules, *limit_fields)),
           (f"Gin (no deadwood at all) scores the defender's deadwood plus a gin bonus of "
            f"{rules.gin_bonus}.", _fields(rules, "gin_bonus")),
           (big, _fields(rules, "big_gin_bonus"))]
    if rules.knocks:  # straight gin has no knock to undercut or lay off against
        out[2:2] = [(f"The defender undercuts when its deadwood, after layoffs, is {tie}: it "
                     f"scores the difference plus an undercut bonus of {rules.undercut_bonus}.",
                     _fields(rules, "undercut_bonus", "undercut_on_tie")),
                    (LAYOFFS[rules.layoff], _fields(rules, "layoff"))]
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
    return [(DEALS[rules.deal], _fields(rules, "deal")),
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
           (SHUTOUT[rules.shutout].format(bonus=rules.shutout_bonus),
            _fields(rules, "shutout", *(("shutout_bonus",) if rules.shutout == "bonus"
                                        else ())))]
    if rules.oklahoma:
        out.append(("An undercut is worth 2 boxes and gin 3, doubled again on a doubling "
                    "upcard." if rules.oklahoma_boxes else
                    "Every hand won is worth one box, gin and undercuts too.",
                    _fields(rules, "oklahoma_boxes")))
    out.append((NEXT_DEALER[rules.next_dealer], _fields(rules, "next_dealer")))
    return out
