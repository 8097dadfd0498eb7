"""The one place rules become words (ginsim/game/rulebook/rules_in_words.py), on the
presets whose rules differ most: each expected text is what docs/rules.md says of them."""

from __future__ import annotations

import pytest

from ginsim.game.rulebook.rules_in_words import (
    hand_ending,
    hand_limit_words,
    knock_terms,
    no_knocking,
    preset_words,
    rule_sentences,
    rules_brief,
    rules_name,
    rules_words,
    upcard_words,
)
from ginsim.game.rules import Rules


def sentences(spec: str) -> list[str]:
    return [sentence for sentence, _ in rule_sentences(Rules.coerce(spec))]


def test_modern_knocks_at_10_with_gin_and_undercut_25_and_ties_undercutting() -> None:
    rules = Rules.coerce("modern")
    assert rules_name(rules) == "modern rules"
    assert rules_brief(rules) == ("modern rules (knock at 10 or less, gin 25, undercut 25, "
                                  "ties undercut)")
    assert rules_words(rules) == ("modern rules (knock at 10 or less, gin bonus 25, undercut "
                                  "bonus 25, a tie counts as an undercut)")
    assert knock_terms(rules) == "knock at 10 or less, gin 25, undercut 25, a tie undercuts"
    assert sentences("modern")[:3] == [
        "Knock with 10 or less deadwood.",
        "Gin (no deadwood at all) scores the defender's deadwood plus a gin bonus of 25.",
        "The defender undercuts when its deadwood, after layoffs, is at or below the "
        "knocker's: it scores the difference plus an undercut bonus of 25."]
    assert "A game ends when a player reaches 100 points; the winner adds a game bonus of " \
           "100 and a box of 25 for each hand won." in sentences("modern")


def test_changed_fields_are_named_and_a_tie_no_longer_undercuts() -> None:
    rules = Rules.coerce("modern:undercut_on_tie=false,undercut_bonus=10")
    assert rules_name(rules) == "modern rules with undercut bonus 10, undercut on tie false"
    assert rules_brief(rules).endswith("(knock at 10 or less, gin 25, undercut 10, ties do "
                                       "not undercut)")
    assert knock_terms(rules).endswith("undercut 10, a tie is no undercut")
    assert ("The defender undercuts when its deadwood, after layoffs, is below the knocker's "
            "(a tie is no undercut): it scores the difference plus an undercut bonus of 10."
            ) in sentences(rules.spec())


def test_oklahoma_lets_the_upcard_set_the_limit_an_ace_meaning_gin() -> None:
    rules = Rules.coerce("oklahoma")
    assert hand_ending(rules) == "oklahoma"
    assert rules_brief(rules) == ("oklahoma rules (the upcard sets the knock limit, gin 25, "
                                  "undercut 25, ties undercut)")
    assert upcard_words(rules) == "Your knock limit is the upcard's value (an ace: gin only)."
    assert upcard_words(Rules.coerce("oklahoma:aces_must_gin=false")) == (
        "Your knock limit is the upcard's value (an ace: knock at 1).")
    said = sentences("oklahoma")
    assert said[0] == ("The upcard sets the knock limit: knock with deadwood up to its number "
                       "(a 7: 7 or less; a jack, queen or king: 10); an ace means gin only.")
    assert "An upcard of spades doubles the hand's score." in said
    assert ("An undercut is worth 2 boxes and gin 3, doubled again on a doubling upcard."
            in said)
    assert said[-1] == "The loser of a hand deals the next one."


def test_a_hands_knock_limit_in_words_never_says_knock_at_zero() -> None:
    assert hand_limit_words(Rules.coerce("modern"), 10) == "knock at 10 or less"
    assert hand_limit_words(Rules.coerce("oklahoma"), 7) == "knock at 7 or less"
    assert hand_limit_words(Rules.coerce("oklahoma"), 0) == "no knocking: gin only"  # an ace
    assert hand_limit_words(Rules.coerce("straight"), 0) == "no knocking: gin only"
    assert hand_limit_words(Rules.coerce("mahjong"), 0) == "no knocking: go out"


def test_straight_gin_has_no_knock_so_no_undercut_or_layoff() -> None:
    rules = Rules.coerce("straight")
    assert hand_ending(rules) == "straight"
    assert rules_words(rules) == "straight rules (no knocking, gin only, gin bonus 25)"
    assert knock_terms(rules) == "no knocking, gin only, gin 25"  # no undercut to state
    said = sentences("straight")
    assert said[0] == "No knocking: straight gin, a hand ends only with gin."
    assert no_knocking("straight") == "rules straight allow no knocking (gin only)"
    assert not any("undercut" in s or "lays off" in s for s in said)


def test_mahjong_gin_goes_out_instead_of_knocking() -> None:
    rules = Rules.coerce("mahjong")
    assert hand_ending(rules) == "mahjong"
    assert rules_brief(rules).startswith("mahjong rules (Mahjong gin: no knocking, several "
                                         "pile cards may be taken, melds on the table, gin 25")
    said = sentences("mahjong")
    assert said[0].startswith("No knocking (Mahjong gin): a pile take may reach down several "
                              "cards, melds go face up on the table")
    assert said[1] == ("Going out scores 25 plus the cards left in the loser's hand (every "
                       "card in it counts).")


def test_the_eleven_card_deal_has_no_upcard() -> None:
    rules = Rules.coerce("eleven")
    assert rules_brief(rules) == ("eleven rules (knock at 10 or less, gin 25, undercut 25, "
                                  "ties undercut, eleven-card deal)")
    assert ("The non-dealer gets eleven cards and starts by discarding; there is no upcard."
            in sentences("eleven"))
    assert ("Ten cards each; the card turned up beside the stock (the upcard) is offered to "
            "the non-dealer first, then to the dealer." in sentences("modern"))


@pytest.mark.parametrize(("preset", "words"), [("big_gin", "big gin"), ("modern", "modern"),
                                                ("last_discard", "last discard")])
def test_a_preset_reads_without_underscores(preset: str, words: str) -> None:
    assert preset_words(preset) == words
    assert rules_name(Rules.coerce(preset)) == f"{words} rules"


def test_each_sentence_names_the_fields_it_states() -> None:
    fields = dict((s, f) for s, f in rule_sentences(Rules.coerce("modern")))
    assert fields["Knock with 10 or less deadwood."] == "knock_limit=10"
    assert fields["The loser of a hand deals the next one."] == "next_dealer=loser"
