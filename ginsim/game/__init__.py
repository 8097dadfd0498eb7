"""What gin rummy is: cards, melds, deadwood, layoffs, rules and scoring."""

from .cards import card_text, cards_to_mask, format_cards, mask_to_cards, parse_cards
from .melds import best_discard, best_melds, deadwood, layoff_deadwood, meld_table
from .rulebook.rules_presets import RULES_PRESETS
from .rules import Rules

__all__ = ["RULES_PRESETS", "Rules", "best_discard", "best_melds", "card_text",
           "cards_to_mask", "deadwood", "format_cards", "layoff_deadwood", "mask_to_cards",
           "meld_table", "parse_cards"]
