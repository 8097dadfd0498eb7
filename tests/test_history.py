"""The public-history notation: replay of a hand-checked example, the round trip, and
one-line errors naming the inconsistent event."""

import pytest

from ginsim.game.cards import card_text, cards_to_mask, parse_cards
from ginsim.game.history import EXAMPLE
from ginsim.simulator.machine.history_replay import parse_history


def mask(text: str) -> int:
    return cards_to_mask(parse_cards(text))


def test_example_replays_to_the_state_worked_out_by_hand():
    # dealer:op up:7H me:pass op:pass me:stock me:-KH op:+KH op:-2D me:stock me:-5C op:stock
    h = parse_history(EXAMPLE)
    assert h.dealer == 1 and h.upcard == parse_cards("7H")[0]
    assert list(h.pile) == parse_cards("7H 2D 5C") and h.pile_by == (-1, 1, 0)
    assert h.taken == (0, mask("KH"))
    assert h.discarded == (mask("KH 5C"), mask("2D"))
    assert h.passed == (mask("7H 2D"), mask("7H 5C"))
    assert h.stock_draws == (2, 1) and h.stock_left == 28
    assert h.to_move == 1 and h.drawn and not h.first_turn
    assert h.text() == EXAMPLE


def test_list_of_events_and_commas_mean_the_same():
    tokens = EXAMPLE.split()
    a, b = parse_history(tokens), parse_history(", ".join(tokens))
    assert a.text() == b.text() == EXAMPLE and (a.events == b.events).all()
    assert (a.pile, a.taken, a.passed, a.stock_left) == (b.pile, b.taken, b.passed,
                                                           b.stock_left)


def test_upcard_taken_by_the_dealer_after_a_pass():
    h = parse_history("dealer:me up:9S op:pass me:+9S me:-KC op:stock op:-2C")
    assert h.taken == (mask("9S"), 0) and list(h.pile) == parse_cards("KC 2C")
    assert h.passed == (0, mask("9S KC")) and h.to_move == 0 and not h.drawn


@pytest.mark.parametrize("text,match", [
    ("up:7H", "starts with the dealer"),
    ("dealer:me", "comes the upcard"),
    ("dealer:me up:7H me:pass", r"event 3 'me:pass': it is op's turn"),
    ("dealer:me up:7H op:stock", "upcard is offered first"),
    ("dealer:me up:7H op:pass me:pass op:+7H", "both players passed"),
    ("dealer:me up:7H op:+7H op:-2C me:+3C", r"event 5 'me:\+3C': 3C is not on top"),
    ("dealer:me up:7H op:+7H op:-2C me:stock me:stock", "already holds 11 cards"),
    ("dealer:me up:7H op:+7H op:-7H", "just taken from the pile"),
    ("dealer:me up:7H op:+7H op:-2C me:stock me:-2C", r"2C is in the pile"),
    ("dealer:me up:7H op:+7H op:-2C me:stock me:-7H", r"7H is in the opponent's hand"),
    ("dealer:me up:7H op:pass me:pass op:stock op:-3D me:-4D", "must draw before"),
    ("dealer:me up:7H op:jump", "unknown action"),
    ("dealer:me up:7H op:+ZZ", "bad card"),
    ("dealer:xx up:7H", "the dealer is 'me' or 'op'"),
])
def test_inconsistent_history_is_one_line_naming_the_event(text, match):
    with pytest.raises(ValueError, match=match) as err:
        parse_history(text)
    assert "\n" not in str(err.value)


def test_stock_cannot_run_below_the_floor():
    events = ["dealer:me", "up:7H", "op:pass", "me:pass"]
    seat = "op"
    cards = iter(parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AH 2H 3H 4H 5H 6H 8H "
                             "9H TH JH QH KH AD 2D 3D 4D 5D 6D"))
    for _ in range(29):  # 31 stock cards, floor 2
        events += [f"{seat}:stock", f"{seat}:-{card_text(next(cards))}"]
        seat = "me" if seat == "op" else "op"
    assert parse_history(events).stock_left == 2
    with pytest.raises(ValueError, match="down to the floor"):
        parse_history(events + [f"{seat}:stock"])
