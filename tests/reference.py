"""Slow, brute-force reference implementations of the gin rummy rules (RULES.md 1, 2, 5.2, 6).

Standard library only (hypothesis is imported lazily by the strategy helpers at the bottom).
Nothing here imports ``ginsim``: tests compare the fast code against these functions.

Card convention: an int 0..51, ``suit * 13 + rank``; suits S H D C = 0..3,
rank 0 = ace .. 12 = king.
Ace is low only (A-2-3 is a run, Q-K-A is not).
"""

from __future__ import annotations

import itertools
from functools import cache

SUITS = "SHDC"
RANKS = "A23456789TJQK"


def suit_of(card: int) -> int:
    """Suit 0..3 (S H D C)."""
    return card // 13


def rank_of(card: int) -> int:
    """Rank 0..12 (A .. K)."""
    return card % 13


def card_value(card: int) -> int:
    """Deadwood value: ace 1, 2..10 face value, J Q K 10."""
    return min(rank_of(card) + 1, 10)


def hand_value(cards) -> int:
    """Sum of deadwood values of the given cards."""
    return sum(card_value(c) for c in cards)


def card_name(card: int) -> str:
    """Two-character name such as 'AS', 'TD', 'KH'."""
    return RANKS[rank_of(card)] + SUITS[suit_of(card)]


def parse(text: str) -> list[int]:
    """Parse 'AS 2H, 10D td KC' into card ints (order kept). Case-insensitive.

    Rank: A 2-9 T/10 J Q K; suit: S H D C. Separators: whitespace and commas.
    """
    cards = []
    for token in text.replace(",", " ").split():
        tok = token.upper()
        rank_txt, suit_txt = tok[:-1], tok[-1]
        if rank_txt == "10":
            rank_txt = "T"
        if len(rank_txt) != 1 or rank_txt not in RANKS or suit_txt not in SUITS:
            raise ValueError(f"bad card token {token!r}")
        cards.append(SUITS.index(suit_txt) * 13 + RANKS.index(rank_txt))
    return cards


def is_meld(cards) -> bool:
    """True iff the cards form a set (3-4 of one rank) or a run (3+ consecutive, one suit)."""
    cards = set(cards)
    if len(cards) < 3:
        return False
    if len({rank_of(c) for c in cards}) == 1:
        return len(cards) <= 4
    if len({suit_of(c) for c in cards}) != 1:
        return False
    ranks = sorted(rank_of(c) for c in cards)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def _build_all_melds() -> list[frozenset[int]]:
    """Every meld of the deck: sets first (by rank), then runs (by suit, start, length)."""
    melds = []
    for rank in range(13):
        same_rank = [s * 13 + rank for s in range(4)]
        for k in (3, 4):
            for combo in itertools.combinations(same_rank, k):
                melds.append(frozenset(combo))
    for suit in range(4):
        for start in range(13):
            for end in range(start + 3, 14):  # ranks start .. end-1, at least 3 long
                melds.append(frozenset(suit * 13 + r for r in range(start, end)))
    return melds


ALL_MELDS: list[frozenset[int]] = _build_all_melds()


def melds_within(cards) -> list[frozenset[int]]:
    """All melds (from ALL_MELDS) that are subsets of the given cards."""
    cards = frozenset(cards)
    return [m for m in ALL_MELDS if m <= cards]


def _meld_collections(cards: frozenset[int]):
    """Yield every collection (list) of pairwise-disjoint melds inside ``cards``, each once.

    Recursion on the lowest card: it is either left out of every meld, or it belongs to
    one meld that lies inside the remaining cards.
    """
    if not cards:
        yield []
        return
    low = min(cards)
    rest = cards - {low}
    yield from _meld_collections(rest)  # low card in no meld
    for meld in melds_within(cards):
        if low in meld:
            for others in _meld_collections(cards - meld):
                yield [meld] + others


@cache
def _min_deadwood(cards: frozenset[int]) -> int:
    """Memoised core of ref_min_deadwood (same recursion as _meld_collections)."""
    if not cards:
        return 0
    low = min(cards)
    best = card_value(low) + _min_deadwood(cards - {low})
    for meld in melds_within(cards):
        if low in meld:
            best = min(best, _min_deadwood(cards - meld))
    return best


def ref_min_deadwood(cards) -> int:
    """Exact minimum deadwood over all collections of pairwise-disjoint melds."""
    cards = frozenset(cards)
    assert all(0 <= c < 52 for c in cards)
    return _min_deadwood(cards)


def ref_min_deadwood_arrangements(cards) -> list[list[frozenset[int]]]:
    """Every collection of disjoint melds achieving the minimum deadwood.

    Each collection is a list of frozensets (in no particular order).  A hand with no
    melds at all gives ``[[]]``.
    """
    cards = frozenset(cards)
    best = ref_min_deadwood(cards)
    result = []
    for coll in _meld_collections(cards):
        covered = frozenset().union(*coll)
        if hand_value(cards - covered) == best:
            result.append(coll)
    return result


def ref_best_discard(cards11, forbidden: int | None = None) -> tuple[int, int]:
    """(card to discard, deadwood of the remaining cards) minimising the deadwood.

    Ties go to the higher-value card, then to the higher card index.  ``forbidden``
    (e.g. the card just taken from the discard pile) may not be discarded.
    """
    hand = frozenset(cards11)
    assert len(hand) == len(cards11), "duplicate cards"
    candidates = []
    for card in hand:
        if card == forbidden:
            continue
        dw = ref_min_deadwood(hand - {card})
        # sort key: lowest deadwood, then highest value, then highest index
        candidates.append((dw, -card_value(card), -card, card))
    assert candidates, "no card may be discarded"
    dw, _, _, card = min(candidates)
    return card, dw


def _can_lay_off_all(table: frozenset[frozenset[int]], cards: frozenset[int], memo: dict) -> bool:
    """True iff every card in ``cards`` can be attached to the table, one card at a time.

    A card attaches to a table meld iff meld + card is still a meld (a 4th card on a
    3-card set, or a card extending a run at either end).  Melds on the table grow as
    cards attach, so layoffs chain.  Every order and every choice of target meld is
    tried (a greedy choice can be wrong: 7C on 7S-7H-7D blocks 8C, while 7C on
    4C-5C-6C lets 8C follow).  ``memo`` caches (table, cards) -> answer.
    """
    if not cards:
        return True
    key = (table, cards)
    if key not in memo:
        memo[key] = any(
            _can_lay_off_all((table - {meld}) | {meld | {card}}, cards - {card}, memo)
            for card in cards
            for meld in table
            if is_meld(meld | {card})
        )
    return memo[key]


def ref_layoff_deadwood(knocker_melds: list[list[int]], defender: list[int]) -> int:
    """Defender's exact minimum deadwood after laying off onto the knocker's melds.

    Brute force: for every collection of disjoint own melds in the defender's hand, and
    for every subset L of the cards left over, L may be laid off iff all of L can be
    attached to the knocker's melds (chains allowed, each card onto one meld); the
    deadwood is the value of the leftover cards not in L.  Return the minimum.
    """
    table = frozenset(frozenset(m) for m in knocker_melds)
    for meld in table:
        assert is_meld(meld), f"knocker meld {sorted(meld)} is not a meld"
    hand = frozenset(defender)
    assert len(hand) == len(defender), "duplicate defender cards"
    on_table = frozenset().union(*table)
    assert sum(len(m) for m in knocker_melds) == len(on_table), "knocker melds overlap"
    assert not (hand & on_table), "defender shares cards with the knocker's melds"

    memo: dict = {}

    best = hand_value(hand)
    for coll in _meld_collections(hand):
        rest = sorted(hand - frozenset().union(*coll))
        rest_value = hand_value(rest)
        for k in range(len(rest) + 1):
            for laid in itertools.combinations(rest, k):
                laid_set = frozenset(laid)
                if _can_lay_off_all(table, laid_set, memo):
                    best = min(best, rest_value - hand_value(laid_set))
    return best


def ref_score(
    K: int,
    D: int,
    gin: bool,
    gin_bonus: int = 25,
    undercut_bonus: int = 25,
    undercut_on_tie: bool = True,
) -> tuple[int, int]:
    """(knocker points, defender points) for one hand, RULES section 6.

    Gin: knocker gets gin_bonus + D (never undercut).  Otherwise D > K: knocker gets
    D - K; D < K (or D == K with undercut_on_tie): defender gets K - D + undercut_bonus.
    With undercut_on_tie=False a tie scores nothing for either side.
    """
    if gin:
        assert K == 0, "gin means zero deadwood"
        return gin_bonus + D, 0
    if D > K:
        return D - K, 0
    if D < K or undercut_on_tie:
        return 0, K - D + undercut_bonus
    return 0, 0


# --------------------------------------------------------------------------------------
# hypothesis strategies


def random_hands(n: int):
    """Strategy: n distinct uniformly random cards (a sorted list)."""
    from hypothesis import strategies as st

    return st.lists(st.integers(0, 51), min_size=n, max_size=n, unique=True).map(sorted)


def meld_dense_hands(n: int):
    """Strategy: n distinct cards built from 1-3 melds (often overlapping), then random fill.

    After the first meld, each further meld is (usually) chosen among melds that touch
    the cards so far (share a card, or a rank within 1 of one of them), so hands often
    contain several competing melds: sets crossing runs, overlapping runs, 4-card sets.
    If the union has more than n cards a random n of them are kept.
    """
    from hypothesis import strategies as st

    @st.composite
    def build(draw):
        chosen: set[int] = set(draw(st.sampled_from(ALL_MELDS)))
        for _ in range(draw(st.integers(0, 2))):
            near = [
                m
                for m in ALL_MELDS
                if any(abs(rank_of(a) - rank_of(b)) <= 1 for a in m for b in chosen)
            ]
            any_meld = draw(st.integers(0, 3)) == 0  # 1 in 4: any meld at all
            chosen |= draw(st.sampled_from(ALL_MELDS if any_meld else near))
        kept = draw(st.permutations(sorted(chosen)))[:n]
        rest = [c for c in range(52) if c not in chosen]
        fill = draw(st.permutations(rest))[: n - len(kept)]
        return sorted(kept + fill)

    return build()
