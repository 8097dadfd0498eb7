"""Independent pure-Python references for the Rami tests: meld validity and value, and a
brute-force best lay-down that tries every assignment of every card."""

from __future__ import annotations

from itertools import product

JOKER = 52
POS_VALUE = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11]
SET_VALUE = [11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
HAND_VALUE = [SET_VALUE[k % 13] for k in range(52)] + [20]


def natural_positions(kind: int) -> list[int]:
    rank = kind % 13
    return [1, 14] if rank == 0 else [rank + 1]


def new_meld_value(kinds: list[int]) -> int | None:
    """Most laid value of ``kinds`` as one new meld (at most one joker), None if none."""
    naturals = [k for k in kinds if k != JOKER]
    jokers = len(kinds) - len(naturals)
    if len(kinds) < 3 or jokers > 1 or len(naturals) < 2:
        return None
    best = None
    ranks = {k % 13 for k in naturals}
    suits = [k // 13 for k in naturals]
    if len(ranks) == 1 and len(set(suits)) == len(suits) and len(kinds) <= 4:
        best = len(kinds) * SET_VALUE[naturals[0] % 13]
    if len(set(suits)) == 1:
        n = len(kinds)
        for start in range(1, 15 - n + 1):
            window = list(range(start, start + n))
            if 1 in window and 14 in window:
                continue
            free = set(window)
            ok = True
            for k in naturals:
                spots = [p for p in natural_positions(k) if p in free]
                if not spots:
                    ok = False
                    break
                free.discard(spots[0])
            if ok and len(free) == jokers:
                value = sum(POS_VALUE[p] for p in window)
                best = value if best is None else max(best, value)
    return best


def extend_value(meld: dict, added: list[int]) -> int | None:
    """Laid value of ``added`` put on table meld ``meld`` (dict: kind 'set'/'run', ...),
    None if the result is no meld. A meld holding a joker takes no new joker."""
    jokers = added.count(JOKER)
    naturals = [k for k in added if k != JOKER]
    if jokers > (0 if meld["joker"] or meld.get("no_new_joker") else 1):
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
        spots = [None] if not jokers else list(range(1, 15))
        for jp in spots:
            extra = set(choice) | ({jp} if jp is not None else set())
            if jp is not None and (jp in taken or jp in choice):
                continue
            allpos = taken | extra
            lo, hi = min(allpos), max(allpos)
            if len(allpos) != hi - lo + 1 or (1 in allpos and 14 in allpos):
                continue
            value = sum(POS_VALUE[p] for p in extra)
            best = value if best is None else max(best, value)
    return best


def exchange_options(meld: dict, hand: list[int]) -> list[int]:
    """Hand indexes of naturals that may replace the meld's joker."""
    if not meld["joker"]:
        return []
    if meld["kind"] == "run":
        jp = meld["joker"]
        want = {meld["suit"] * 13 + (0 if jp == 14 else jp - 1)}
    else:
        want = {s * 13 + meld["rank"] for s in range(4) if s not in meld["suits"]}
    return [i for i, k in enumerate(hand) if k in want]


def brute_best(hand: list[int], table: list[dict], opened: bool, dry_ok: bool,
               open_min: int, groups: int = 2) -> tuple[int, int, int]:
    """Best (goes out, laid value, -value left) over every assignment of every card
    (kept, one of ``groups`` new melds, or a table meld) and every joker exchange."""
    best = (0, 0, -sum(HAND_VALUE[k] for k in hand))
    ex_choices = [[None] + (exchange_options(m, hand) if opened else []) for m in table]
    for exchanges in product(*ex_choices):
        used = [i for i in exchanges if i is not None]
        if len(set(used)) != len(used):
            continue
        base = [k for i, k in enumerate(hand) if i not in used]
        freed = len(used)
        ex_value = 0
        metas = []
        for m, i in zip(table, exchanges, strict=True):
            meta = dict(m)
            if i is not None:
                k = hand[i]
                if m["kind"] == "run":
                    ex_value += POS_VALUE[m["joker"]]
                else:
                    ex_value += SET_VALUE[m["rank"]]
                    meta["suits"] = tuple(m["suits"]) + (k // 13,)
                meta["joker"] = 0
                meta["no_new_joker"] = True
            metas.append(meta)
        items = base + [JOKER] * freed
        n_base = len(base)
        options = range(1 + groups + len(table))
        for assign in product(options, repeat=len(items)):
            if any(a == 0 or a > groups for a in assign[n_base:]):
                continue  # a freed joker goes into a new meld
            result = _score(items, assign, metas, groups, ex_value, opened, dry_ok, open_min)
            if result is not None and result > best:
                best = result
    return best


def _score(items, assign, metas, groups, ex_value, opened, dry_ok, open_min):
    left = [k for k, a in zip(items, assign, strict=True) if a == 0]
    if len(left) < 1:
        return None
    new_value = 0
    for g in range(1, groups + 1):
        cards = [k for k, a in zip(items, assign, strict=True) if a == g]
        if cards:
            value = new_meld_value(cards)
            if value is None:
                return None
            new_value += value
    lay_value = 0
    for t, meta in enumerate(metas):
        cards = [k for k, a in zip(items, assign, strict=True) if a == 1 + groups + t]
        if cards:
            value = extend_value(meta, cards)
            if value is None:
                return None
            lay_value += value
    laid = new_value + lay_value + ex_value
    out = len(left) == 1
    if not opened and laid > 0 and not (new_value >= open_min or (out and dry_ok)):
        return None
    return (int(out), laid, -sum(HAND_VALUE[k] for k in left))
