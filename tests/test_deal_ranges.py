"""Named deal regions never overlap and blocks stay inside their region."""

import pytest

from ginsim.game.deal_ranges import REGION_SPAN, REGIONS, deal_block


def test_regions_are_disjoint():
    starts = sorted(REGIONS.values())
    assert all(b - a >= REGION_SPAN for a, b in zip(starts, starts[1:], strict=False))


def test_blocks_stay_inside_their_region():
    assert deal_block("training", 0, 100) == REGIONS["training"]
    assert deal_block("training", 3, 100) == REGIONS["training"] + 300
    assert deal_block("reach", -1, 100) == REGIONS["reach"] + REGION_SPAN - 100
    for bad in ((0, 0), (-1, REGION_SPAN + 1), (REGION_SPAN // 10, 10)):
        with pytest.raises(ValueError, match="leaves the training region"):
            deal_block("training", *bad)
    with pytest.raises(ValueError, match="unknown deal region 'nowhere'"):
        deal_block("nowhere", 0, 1)
