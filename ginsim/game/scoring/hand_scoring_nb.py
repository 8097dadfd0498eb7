"""Scoring of one hand (docs/rules.md §6) from the knocker's and defender's deadwood.

Outcome codes are shared by the kernels, the record arrays and the DataFrames.
"""

from .._jit import jit
from ..rules import R_BIG_GIN_BONUS, R_GIN_BONUS, R_UNDERCUT_BONUS, R_UNDERCUT_ON_TIE
from ..state import ENDING_BIG_GIN

OUT_KNOCK = 0
OUT_GIN = 1
OUT_BIG_GIN = 2
OUT_UNDERCUT = 3
OUT_DEAD = 4
#: The outcome names, the one list of them: ``OUTCOMES[OUT_*]`` is a code's name, in the
#: order every table and chart shows them.
OUTCOMES = ("knock", "gin", "big_gin", "undercut", "dead")
#: Each outcome in words (lower case, for a sentence).
OUTCOME_WORDS = {"knock": "knock", "gin": "gin", "big_gin": "big gin", "undercut": "undercut",
                 "dead": "dead hand"}



@jit
def score_hand_nb(ending, knocker_deadwood, defender_deadwood, rules):
    """``(outcome, knocker points, defender points)`` for a hand that was knocked.

    Gin is a knock at 0 deadwood and cannot be undercut; the loser scores 0.
    """
    if ending == ENDING_BIG_GIN:
        return OUT_BIG_GIN, rules[R_BIG_GIN_BONUS] + defender_deadwood, 0
    if knocker_deadwood == 0:
        return OUT_GIN, rules[R_GIN_BONUS] + defender_deadwood, 0
    diff = defender_deadwood - knocker_deadwood
    if diff < 0 or (diff == 0 and rules[R_UNDERCUT_ON_TIE] != 0):
        return OUT_UNDERCUT, 0, rules[R_UNDERCUT_BONUS] - diff
    return OUT_KNOCK, diff, 0
