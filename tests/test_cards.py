import pytest

from ginsim import format_cards, parse_cards
from ginsim.game.cards import card_text, cards_to_mask, mask_to_cards


def test_parse_all_spellings():
    assert parse_cards("AS TD 10D KH".replace("10D", "9D")) == [0, 35, 34, 25]
    assert parse_cards("as, td,kh") == [0, 35, 25]
    assert parse_cards("10c") == [3 * 13 + 9]
    assert parse_cards(["QS", 5]) == [11, 5]


def test_every_card_round_trips():
    text = format_cards(range(52))
    assert parse_cards(text) == list(range(52))
    assert card_text(0) == "AS" and card_text(51) == "KC"


@pytest.mark.parametrize("text,word", [
    ("AS 1S", "'1S'"), ("AS ZZ", "'ZZ'"), ("AX", "'AX'"), ("11H", "'11H'"), ("S", "'S'"),
])
def test_bad_token_named(text, word):
    with pytest.raises(ValueError, match=word):
        parse_cards(text)


def test_duplicates_and_size():
    with pytest.raises(ValueError, match="duplicate card AS"):
        parse_cards("AS 2S as")
    with pytest.raises(ValueError, match="expected 11 cards, got 2"):
        parse_cards("AS 2S", size=11)
    with pytest.raises(ValueError, match="0..51"):
        parse_cards([52])


def test_masks():
    cards = parse_cards("AS KC 7H")
    assert mask_to_cards(cards_to_mask(cards)) == sorted(cards)
