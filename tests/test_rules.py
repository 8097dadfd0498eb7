import numpy as np
import pytest

from ginsim import Rules
from ginsim.game.rulebook.rules_presets import RULES_PRESETS
from ginsim.game.rules import R_BIG_GIN_BONUS, R_KNOCK_LIMIT, R_LAYOFF


def test_presets_round_trip_by_name():
    for name in RULES_PRESETS:
        assert Rules.coerce(name) == Rules.preset(name)
    assert Rules.preset("classic").gin_bonus == 20
    assert Rules.preset("classic").undercut_bonus == 10
    assert Rules.preset("palace").undercut_bonus == 20
    assert Rules.coerce(None) == Rules() == Rules.preset("modern")


def test_packed():
    packed = Rules(knock_limit=7, big_gin_bonus=31, layoff="two_orders").packed()
    assert packed[R_KNOCK_LIMIT] == 7
    assert packed[R_BIG_GIN_BONUS] == 31
    assert packed[R_LAYOFF] == 3
    assert Rules().packed()[R_BIG_GIN_BONUS] == -1


@pytest.mark.parametrize("kwargs,match", [
    ({"knock_limit": -1}, "knock_limit"),
    ({"gin_bonus": 2.5}, "gin_bonus"),
    ({"layoff": "greedy"}, "layoff must be one of"),
    ({"deal": "twelve"}, "deal must be one of"),
    ({"big_gin_bonus": True}, "big_gin_bonus"),
    ({"undercut_on_tie": 1}, "undercut_on_tie"),
    ({"stock_floor": 40}, "stock_floor"),
])
def test_validation(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Rules(**kwargs)


def test_unknown_preset_and_field():
    with pytest.raises(ValueError, match="choose one of modern"):
        Rules.preset("vegas")
    with pytest.raises(ValueError, match="unknown rules field 'knock'"):
        Rules().with_(knock=3)
    assert Rules().with_(knock_limit=5).knock_limit == 5


def test_each_field_packs_into_its_own_slot():
    """Changing one field changes exactly its own slot of the packed arrays (HAND_FIELDS
    for the hand kernels, GAME_FIELDS for the game kernels), with the kernel's code."""
    from ginsim.game import rules as r

    base = Rules.coerce("modern")
    changed = {"knock_limit": 7, "gin_bonus": 20, "undercut_bonus": 10,
               "undercut_on_tie": False, "big_gin_bonus": 31, "stock_floor": 0,
               "layoff": "two_orders", "deal": "eleven", "last_discard_rule": True,
               "target": 250, "game_bonus": 0, "box_bonus": 20, "shutout": "double",
               "shutout_bonus": 50, "next_dealer": "alternate", "team_target": 200,
               "match_hand_points": 10, "match_bonus": 50, "match_shutout_bonus": 40}
    codes = {"layoff": r.LAYOFF_TWO_ORDERS, "deal": r.DEAL_ELEVEN, "shutout": r.SHUTOUT_DOUBLE,
             "next_dealer": r.NEXT_ALTERNATE}
    for name, value in changed.items():
        other = base.with_(**{name: value})
        for fields, pack in ((r.HAND_FIELDS, Rules.packed), (r.GAME_FIELDS, Rules.packed_game)):
            diff = np.flatnonzero(pack(other) != pack(base))
            if name in fields:
                assert list(diff) == [fields.index(name)], name
                code = codes[name] if name in codes else int(value)
                assert pack(other)[fields.index(name)] == code, name
            else:
                assert len(diff) == 0, name
    assert base.with_(big_gin_bonus=None).packed()[r.R_BIG_GIN_BONUS] == -1
    okla = Rules.coerce("oklahoma:double_suits=SD")
    assert okla.packed()[r.R_DOUBLE_SUITS] == 0b101
