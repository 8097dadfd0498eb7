"""The words of a hand for a player (``ginsim play``'s screen, ``ginsim serve``'s page): a
hand with its best melds, each move, the showdown as docs/rules.md §5-6 state it from the
hand's ``Table.result()`` (what a game record keeps, so the screen and the record agree),
and the advisor's table for the decision in front of seat 0."""

from __future__ import annotations

from ..game.cards import card_from_text, card_text, cards_to_mask, sort_key
from ..game.melds import best_melds, deadwood
from ..game.scoring.hand_scoring_nb import OUTCOME_WORDS
from ..table.table import Table


def hand_groups(cards: list[str] | list[int], rules) -> tuple[list[list[str]], list[str], int]:
    """A hand as a player lays it out: its best melds (card texts), the other cards sorted
    by suit and rank, and the deadwood."""
    ints = [c if isinstance(c, int) else card_from_text(c) for c in cards]
    if not ints:
        return [], [], 0
    melds = best_melds(ints, rules)
    melded = cards_to_mask(card_from_text(c) for m in melds for c in m)
    loose = [card_text(c) for c in sorted(ints, key=sort_key) if not (melded >> c) & 1]
    return [list(m) for m in melds], loose, deadwood(ints, rules)


def hand_text(cards: list[str] | list[int], rules) -> str:
    """Cards sorted by suit and rank, best melds first in brackets, then the deadwood."""
    if not cards:
        return "(no cards)"
    melds, loose, dw = hand_groups(cards, rules)
    parts = ["[" + " ".join(m) + "]" for m in melds] + [" ".join(loose)]
    return f"{'  '.join(p for p in parts if p)}   (deadwood {dw})"


#: Each seat's words on the showdown's screen: (name, possessive, "score(s)").
SEAT_WORDS = (("You", "your", "score"), ("Bot", "Bot's", "scores"))
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def _melds_text(melds: list[list[str]]) -> str:
    return " ".join("[" + " ".join(m) + "]" for m in melds)


def showdown_text(table: Table, rules) -> str:
    """The showdown as docs/rules.md §5-6 state it, every word from ``table.result()``
    (what a game record keeps): the knocker's melds and deadwood, the defender's own
    melds, its layoffs (none against gin or big gin) and deadwood, and how the points
    were counted (the bonus, the deadwoods, Oklahoma's doubling)."""
    r = table.result()
    lines = ["", "  Showdown:"]
    if r["outcome"] == "dead":
        for seat in (0, 1):
            lines.append(f"    {SEAT_WORDS[seat][0]:>3}: {hand_text(r['hands'][seat], rules)}")
        lines.append(f"    Dead hand: the stock is down to {table.stock_left} cards and nobody "
                     "knocked, so nobody scores; the same dealer deals again.")
        return "\n".join(lines)
    lines += [_knocker_line(r), _defender_line(r),
              "    " + points_text(r, rules, table.observation(0)["upcard"])]
    return "\n".join(lines)


def _knocker_line(r: dict) -> str:
    """The knocker's melds, and its deadwood cards after a knock."""
    k, outcome = r["knocker"], r["outcome"]
    if outcome in ("gin", "big_gin"):
        how = {"gin": "go gin" if k == 0 else "goes gin",
               "big_gin": "lay down big gin" if k == 0 else "lays down big gin"}[outcome]
        return f"    {SEAT_WORDS[k][0]} {how}: {_melds_text(r['melds'])}"
    melded = {c for m in r["melds"] for c in m}
    loose = " ".join(c for c in r["hands"][k] if c not in melded)
    return (f"    {SEAT_WORDS[k][0]} knock{'' if k == 0 else 's'}: {_melds_text(r['melds'])}  "
            f"{loose} (deadwood {r['knocker_deadwood']})")


def _defender_line(r: dict) -> str:
    """The defender's own melds, its layoffs (none against gin) and deadwood cards."""
    d, outcome, dd = 1 - r["knocker"], r["outcome"], r["defender_deadwood"]
    used = {c for m in r["defender_melds"] + r["layoffs"] for c in m}
    rest = " ".join(c for c in r["hands"][d] if c not in used)
    own = _melds_text(r["defender_melds"])
    parts = "  ".join(p for p in (own, rest) if p)
    if outcome in ("gin", "big_gin"):
        return (f"    {SEAT_WORDS[d][0]}: {parts} (deadwood {dd}); nobody lays off against "
                f"{OUTCOME_WORDS[outcome]}")
    if not any(r["layoffs"]):
        return f"    {SEAT_WORDS[d][0]}: {parts} (deadwood {dd}; nothing to lay off)"
    laid = ", ".join(f"{' '.join(c)} on [{' '.join(m)}]"
                     for m, c in zip(r["melds"], r["layoffs"], strict=True) if c)
    return (f"    {SEAT_WORDS[d][0]}: {own + '  ' if own else ''}lay{'' if d == 0 else 's'} off "
            f"{laid}  {rest} (deadwood {r['defender_deadwood_before_layoff']} before layoffs, "
            f"{dd} after)")


def points_text(r: dict, rules, upcard: str | None) -> str:
    """How the hand's points were counted (docs/rules.md §6), e.g. "Gin: You score the
    gin bonus 25 + Bot's deadwood 8 = 33 points.", from a Table result ``r``."""
    k, d = r["knocker"], 1 - r["knocker"]
    kd, dd, outcome = r["knocker_deadwood"], r["defender_deadwood"], r["outcome"]
    winner = d if outcome == "undercut" else k
    name, _, verb = SEAT_WORDS[winner]
    kpos, dpos = SEAT_WORDS[k][1], SEAT_WORDS[d][1]
    if outcome == "gin":
        sum_text = f"the gin bonus {rules.gin_bonus} + {dpos} deadwood {dd}"
        base = rules.gin_bonus + dd
        why = ""
    elif outcome == "big_gin":
        sum_text = f"the big gin bonus {rules.big_gin_bonus} + {dpos} deadwood {dd}"
        base = rules.big_gin_bonus + dd
        why = ""
    elif outcome == "undercut":
        sum_text = f"the undercut bonus {rules.undercut_bonus} + {kd} - {dd}"
        base = rules.undercut_bonus + kd - dd
        why = (f"{dpos} deadwood {dd} ties {kpos} {kd}, and a tie is an undercut under these "
               "rules: " if dd == kd else f"{dpos} deadwood {dd} is below {kpos} {kd}: ")
    else:
        sum_text = f"{dpos} deadwood {dd} - {kpos} {kd}"
        base = dd - kd
        why = (f"{dpos} deadwood {dd} ties {kpos} {kd}, and under these rules a tie is no "
               "undercut: " if dd == kd else "")
    why = why[:1].upper() + why[1:]
    points = r["points"][winner]
    text = f"{OUTCOME_WORDS[outcome].capitalize()}: {why}{name} {verb} {sum_text} = "
    multiplier = r.get("multiplier", 1)
    if multiplier > 1:
        suits = " or ".join(SUIT_WORDS[s] for s in rules.double_suits.upper())
        text += (f"{base}, x{multiplier} for the upcard {upcard} (an upcard of {suits} "
                 "doubles the hand) = ")
    text += f"{points} point{'' if points == 1 else 's'}."  # the kernel's score
    if getattr(rules, "oklahoma_boxes", False) and points > 0:
        boxes = {"undercut": 2, "gin": 3, "big_gin": 3}.get(outcome, 1) * multiplier
        text += f" The hand is worth {boxes} box{'' if boxes == 1 else 'es'}."
    return text


def event_text(event: dict, who: str, gin: bool = False) -> str:
    """One move in words, e.g. "Bot takes 7H from the pile" or "You discard KD" (a knock
    with ``gin``: "You go gin, discarding KD")."""
    card = event.get("card")
    you = who == "You"
    if gin and event["action"] == "knock":
        return f"{who} {'go' if you else 'goes'} gin, discarding {card}"
    words = {"take": (f"take the upcard {card}", f"takes the upcard {card}"),
             "pass": (f"pass {card}", f"passes {card}"),
             "stock": (f"draw {card} from the stock", "draws from the stock"),
             "pile": (f"take {card} from the pile", f"takes {card} from the pile"),
             "discard": (f"discard {card}", f"discards {card}"),
             "knock": (f"knock, discarding {card}", f"knocks, discarding {card}"),
             "big_gin": ("lay down big gin", "lays down big gin")}[event["action"]]
    return f"{who} {words[0] if you else words[1]}"


def gin_discards(table: Table) -> list[str]:
    """The discards that leave seat 0 no deadwood now (a knock with them is gin): none
    unless seat 0 is to discard (or to take the final discard and knock)."""
    if table.to_move != 0 or table.phase not in ("discard", "last_discard"):
        return []
    view = table.observation(0)
    held = list(view["hand"]) + ([view["pile_top"]] if table.phase == "last_discard" else [])
    knocks = [t.split()[1] for t in view["legal"] if t.startswith("knock ")]
    return [c for c in knocks
            if deadwood([h for h in held if h != c], table.rules) == 0]


def hint_advice(table: Table, rules, bot: str, rollouts: int = 400, seed: int = 0,
                score: tuple[int, int] | None = None, precision: float | None = None):
    """The advisor's table (``ginsim.advise``) for seat 0's decision now, against the
    bot played (``bot``, its spec: its card play and knock chart; an mc bot by the plain
    strategy it plays on with) and read by the same model: ``(table, model, note)``,
    ``note`` saying where the model is not the bot itself; with ``score`` (yours, the
    bot's) each option's chance of winning the game too, with ``precision`` rollouts
    until every interval is that narrow (``advise``'s). ValueError where there is
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
    frame = advise(" ".join(card_text(c) for c in sorted(hand, key=sort_key)), drawn=drawn,
                   history=table.history(0), rules=rules, opponent=model,
                   rollouts=rollouts, seed=seed, score=score, precision=precision)
    return frame, model, note
