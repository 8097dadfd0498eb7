"""Independent pure-Python references for the Rami tests: meld validity and value, and a
brute-force best lay-down that tries every assignment of every card."""

from __future__ import annotations

from itertools import combinations, product

JOKER = 52
POS_VALUE = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11]
SET_VALUE = [11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
HAND_VALUE = [SET_VALUE[k % 13] for k in range(52)] + [20]


def natural_positions(kind: int) -> list[int]:
    rank = kind % 13
    return [1, 14] if rank == 0 else [rank + 1]


def new_meld_value(kinds: list[int], jpm: int = 1) -> int | None:
    """Most laid value of ``kinds`` as one new meld, None if none: a set holds at most
    one joker, a run at most ``jpm`` (never two side by side); two naturals at least."""
    naturals = [k for k in kinds if k != JOKER]
    jokers = len(kinds) - len(naturals)
    if len(kinds) < 3 or jokers > jpm or len(naturals) < 2:
        return None
    best = None
    ranks = {k % 13 for k in naturals}
    suits = [k // 13 for k in naturals]
    if len(ranks) == 1 and len(set(suits)) == len(suits) and len(kinds) <= 4 and jokers <= 1:
        best = len(kinds) * SET_VALUE[naturals[0] % 13]
    if len(set(suits)) == 1:
        n = len(kinds)
        for start in range(1, 15 - n + 1):
            window = list(range(start, start + n))
            if 1 in window and 14 in window:
                continue
            for choice in product(*[natural_positions(k) for k in naturals]):
                if len(set(choice)) != len(choice) or not set(choice) <= set(window):
                    continue
                free = sorted(set(window) - set(choice))
                if any(b == a + 1 for a, b in zip(free, free[1:], strict=False)):
                    continue
                value = sum(POS_VALUE[p] for p in window)
                best = value if best is None else max(best, value)
    return best


def extend_value(meld: dict, added: list[int], jpm: int = 1) -> int | None:
    """Laid value of ``added`` put on table meld ``meld`` (dict: kind 'set'/'run', ...),
    None if the result is no meld. A meld that held a joker at the start of the turn
    takes no new joker; a set takes one, a run up to ``jpm`` (never side by side)."""
    jokers = added.count(JOKER)
    naturals = [k for k in added if k != JOKER]
    had = meld["joker"] or meld.get("joker2") or meld.get("no_new_joker")
    if jokers > (0 if had else (1 if meld["kind"] == "set" else jpm)):
        return None
    if meld["kind"] == "set":
        suits = list(meld["suits"]) + [k // 13 for k in naturals]
        if any(k % 13 != meld["rank"] for k in naturals) or len(set(suits)) != len(suits):
            return None
        if len(suits) + int(bool(meld["joker"])) + jokers > 4:
            return None
        return len(added) * SET_VALUE[meld["rank"]]
    if any(k // 13 != meld["suit"] for k in naturals):
        return None
    best = None
    taken = set(range(meld["lo"], meld["hi"] + 1))
    for choice in product(*[natural_positions(k) for k in naturals]):
        if len(set(choice)) != len(choice) or taken & set(choice):
            continue
        for spots in combinations(range(1, 15), jokers):
            if any(b == a + 1 for a, b in zip(spots, spots[1:], strict=False)):
                continue
            extra = set(choice) | set(spots)
            if len(extra) != len(choice) + len(spots) or taken & set(spots):
                continue
            allpos = taken | extra
            lo, hi = min(allpos), max(allpos)
            if len(allpos) != hi - lo + 1 or (1 in allpos and 14 in allpos):
                continue
            value = sum(POS_VALUE[p] for p in extra)
            best = value if best is None else max(best, value)
    return best


def exchange_slots(meld: dict) -> list[object]:
    """The meld's jokers one may exchange: run positions, or 'set'."""
    if meld["kind"] == "set":
        return ["set"] if meld["joker"] else []
    return [p for p in (meld["joker"], meld.get("joker2", 0)) if p]


def exchange_options(meld: dict, slot: object, hand: list[int]) -> list[int]:
    """Hand indexes of naturals that may replace the meld's joker in ``slot``."""
    if slot == "set":
        want = {s * 13 + meld["rank"] for s in range(4) if s not in meld["suits"]}
    else:
        want = {meld["suit"] * 13 + (0 if slot == 14 else slot - 1)}
    return [i for i, k in enumerate(hand) if k in want]


def brute_best(hand: list[int], table: list[dict], opened: bool, dry_ok: bool,
               open_min: int, groups: int = 2, jpm: int = 1) -> tuple[int, int, int]:
    """Best (goes out, laid value, -value left) over every assignment of every card
    (kept, one of ``groups`` new melds, or a table meld) and every joker exchange."""
    best = (0, 0, -sum(HAND_VALUE[k] for k in hand))
    slots = [(t, slot) for t, m in enumerate(table) for slot in exchange_slots(m)]
    choices = [[None] + (exchange_options(table[t], slot, hand) if opened else [])
               for t, slot in slots]
    for exchanges in product(*choices):
        used = [i for i in exchanges if i is not None]
        if len(set(used)) != len(used):
            continue
        base = [k for i, k in enumerate(hand) if i not in used]
        ex_value = 0
        metas = [dict(m) for m in table]
        for (t, slot), i in zip(slots, exchanges, strict=True):
            if i is None:
                continue
            meta = metas[t]
            if slot == "set":
                ex_value += SET_VALUE[meta["rank"]]
                meta["suits"] = tuple(meta["suits"]) + (hand[i] // 13,)
                meta["joker"] = 0
            else:
                ex_value += POS_VALUE[slot]
                rest = [p for p in (meta["joker"], meta.get("joker2", 0)) if p and p != slot]
                meta["joker"], meta["joker2"] = (rest + [0, 0])[:2]
            meta["no_new_joker"] = True
        items = base + [JOKER] * len(used)
        n_base = len(base)
        options = range(1 + groups + len(table))
        for assign in product(options, repeat=len(items)):
            if any(a == 0 or a > groups for a in assign[n_base:]):
                continue  # a freed joker goes into a new meld
            result = _score(items, assign, metas, groups, ex_value, opened, dry_ok, open_min,
                            jpm)
            if result is not None and result > best:
                best = result
    return best


def _score(items, assign, metas, groups, ex_value, opened, dry_ok, open_min, jpm):
    left = [k for k, a in zip(items, assign, strict=True) if a == 0]
    if len(left) < 1:
        return None
    new_value = 0
    for g in range(1, groups + 1):
        cards = [k for k, a in zip(items, assign, strict=True) if a == g]
        if cards:
            value = new_meld_value(cards, jpm)
            if value is None:
                return None
            new_value += value
    lay_value = 0
    for t, meta in enumerate(metas):
        cards = [k for k, a in zip(items, assign, strict=True) if a == 1 + groups + t]
        if cards:
            value = extend_value(meta, cards, jpm)
            if value is None:
                return None
            lay_value += value
    laid = new_value + lay_value + ex_value
    out = len(left) == 1
    if not opened and laid > 0 and not (new_value >= open_min or (out and dry_ok)):
        return None
    return (int(out), laid, -sum(HAND_VALUE[k] for k in left))
