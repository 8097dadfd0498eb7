"""Greek Rami scoring (the source's worked cases), cards, rules presets and bad input."""

from __future__ import annotations

import pytest

import ginsim.rami as rami
from ginsim.rami.game.cards import deck_kinds, hand_value, parse_hand
from ginsim.rami.game.rules import PRESETS, RamiRules, check_players, parse_rami_rules


def test_ace_joker_five_cost_36() -> None:
    assert hand_value(parse_hand("AS JK 5H")) == 36
    assert rami.deal_charges(["AS JK 5H", ""], [True, True], 1) == [36, 0]


def test_two_players_unopened_loser_capped_at_half_target() -> None:
    # 10 + 10 + 9 = 29, plus 25 = 54 > 50 = half of the 100 target
    assert rami.deal_charges(["KS QH 9D", ""], [False, True], winner=1) == [50, 0]
    # under the cap the surcharge is added in full: 5 + 25
    assert rami.deal_charges(["5S", ""], [False, True], winner=1) == [30, 0]


def test_four_players_one_unopened_pays_the_cap() -> None:
    hands = ["KS QS JS 9H 8H 7H 6H 5C", "", "2S", "3S 4S KD"]
    # 65 + 25 = 90 (cap 100 = min(100, 300 / 2)); opened losers pay their cards
    assert rami.deal_charges(hands, [False, True, True, True], 1) == [90, 0, 2, 17]
    hands[0] += " JK JK"
    assert rami.deal_charges(hands, [False, True, True, True], 1) == [100, 0, 2, 17]


def test_dry_rami_three_players_200_each() -> None:
    charges = rami.deal_charges(["2S", "", "KS QS JK"], [False, True, False], 1, dry=True)
    assert charges == [200, 0, 200]


def test_blocked_deal_lowest_hand_wins() -> None:
    assert rami.deal_charges(["KS", "2S 3S", "AH"], [True, True, False], None) == [10, 0, 36]


def test_charges_follow_the_rules_fields() -> None:
    rules = RamiRules(dry_charge=100, unopened_surcharge=10, cap_half_target=False)
    assert rami.deal_charges(["KS QH 9D", ""], [False, True], 1, rules=rules) == [39, 0]
    assert rami.deal_charges(["KS", ""], [False, True], 1, dry=True, rules=rules) == [100, 0]
    assert RamiRules().unopened_limit(2) == 50 and RamiRules().unopened_limit(4) == 100
    assert [RamiRules().target(p) for p in range(2, 7)] == [100, 200, 300, 400, 500]


def test_deck_is_108_cards_or_106() -> None:
    assert len(deck_kinds(4)) == 108 == RamiRules().deck_size()
    assert RamiRules.preset("rami_two_jokers").deck_size() == 106


@pytest.mark.parametrize("call, match", [
    (lambda: rami.deal_charges(["AS"], [True], 0), "2 to 6 players"),
    (lambda: rami.deal_charges(["AS", "XX"], [True, True], 0), "bad card 'XX'"),
    (lambda: rami.deal_charges(["AS AS AS", ""], [True, True], 0), "appears 3 times"),
    (lambda: rami.deal_charges(["AS", ""], [True], 0), "opened must be a list of 2"),
    (lambda: rami.deal_charges(["AS", ""], [True, True], 5), "winner must be"),
    (lambda: rami.deal_charges(["AS", ""], [True, True], 1, dry=True), "dry rami means"),
    (lambda: rami.deal_charges(["AS", ""], [True, True], 1, players=3), "players is 3"),
    (lambda: parse_rami_rules("nope"), "unknown rami rules preset"),
    (lambda: parse_rami_rules("rami:jokers=9"), "jokers must be a whole number in 0..4"),
    (lambda: parse_rami_rules("rami:colour=red"), "unknown rami rules field"),
    (lambda: parse_rami_rules("rami:open_min=lots"), "bad value 'lots' for open_min"),
    (lambda: check_players(7), "2 to 6 players"),
])
def test_bad_input_is_one_line(call, match) -> None:
    with pytest.raises(ValueError, match=match) as info:
        call()
    assert "\n" not in str(info.value)


def test_presets_and_specs_round_trip() -> None:
    assert RamiRules.coerce(None).name() == "rami"
    for name in PRESETS:
        rules = RamiRules.preset(name)
        assert parse_rami_rules(rules.spec()) == rules and rules.name() == name
    assert parse_rami_rules("rami:jokers=2,open_min=40") == RamiRules(jokers=2, open_min=40)


def test_jokers_per_meld_is_one_or_two() -> None:
    assert parse_rami_rules("rami:jokers_per_meld=2") == RamiRules.preset("rami_two_per_run")
    with pytest.raises(ValueError, match="jokers_per_meld must be a whole number in 1..2"):
        parse_rami_rules("rami:jokers_per_meld=3")


def _hands_strategy():
    from hypothesis import strategies as st
    card = st.sampled_from(["AS", "2H", "5D", "9C", "TS", "JH", "QD", "KC", "JK", "7S"])
    hand = st.lists(card, max_size=6, unique=True).map(" ".join)
    return st.integers(2, 6).flatmap(lambda n: st.tuples(
        st.lists(hand, min_size=n, max_size=n), st.lists(st.booleans(), min_size=n,
                                                         max_size=n),
        st.integers(0, n - 1)))


def test_charges_properties() -> None:
    """For any hands: the winner pays 0; an opened loser pays the hand's value; an
    unopened one the value plus 25, capped at min(100, target / 2); the dry rami 200."""
    from hypothesis import given, settings

    @settings(max_examples=150, deadline=None)
    @given(_hands_strategy())
    def check(case) -> None:
        hands, opened, winner = case
        n = len(hands)
        charges = rami.deal_charges(hands, opened, winner)
        cap = min(100, 100 * (n - 1) // 2)
        for p in range(n):
            value = hand_value(parse_hand(hands[p]))
            want = 0 if p == winner else value if opened[p] else min(value + 25, cap)
            assert charges[p] == want
        closed = [o if p == winner else False for p, o in enumerate(opened)]
        assert rami.deal_charges(hands, closed, winner, dry=True) == [
            0 if p == winner else 200 for p in range(n)]

    check()


def test_every_rules_field_is_packed_once_at_its_code() -> None:
    """The kernels read every field: the packed array holds each one, as an int, at the
    position its ``R_*`` code names (a new field cannot be left out of the kernels)."""
    from dataclasses import fields

    from ginsim.rami.game import rules as rr
    rules = RamiRules(jokers=2, hand_size=11, starter_fourteen=True, open_min=40,
                      dry_charge=150, court_value=9)
    assert sorted(rr.PACKED_FIELDS) == sorted(f.name for f in fields(RamiRules))
    packed = rules.packed()
    assert packed.dtype.name == "int64" and len(packed) == rr.R_SIZE
    assert (packed[rr.R_JOKERS], packed[rr.R_HAND_SIZE], packed[rr.R_STARTER_FOURTEEN],
            packed[rr.R_OPEN_MIN], packed[rr.R_DRY_CHARGE], packed[rr.R_COURT_VALUE],
            packed[rr.R_DISCARD_OUT]) == (2, 11, 1, 40, 150, 9, 1)


@pytest.mark.parametrize("word, value", [("yes", True), ("ON", True), ("1", True),
                                         ("True", True), ("no", False), ("Off", False),
                                         ("0", False), ("false", False)])
def test_true_false_words_read_as_in_gin_rules(word, value) -> None:
    from ginsim.game.rules import parse_rules

    assert parse_rami_rules(f"rami:starter_fourteen={word}").starter_fourteen is value
    assert parse_rules(f"modern:run_wrap={word}").run_wrap is value
