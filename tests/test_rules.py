import pytest

from ginsim import Rules
from ginsim.game.rules import PRESETS, R_BIG_GIN_BONUS, R_KNOCK_LIMIT, R_LAYOFF


def test_presets_round_trip_by_name():
    for name in PRESETS:
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
    with pytest.raises(ValueError, match="no field 'knock'"):
        Rules().with_(knock=3)
    assert Rules().with_(knock_limit=5).knock_limit == 5
