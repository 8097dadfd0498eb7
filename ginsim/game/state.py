"""Layout of a hand in progress: the int64 ``st`` array shared by the hand loop and the
policy kernel.

Public fields (what both players see) are marked; a policy reads only those and its
own hand. The discard pile itself lives in a separate array (bottom first) and the
deck in a third (the stock is ``deck[st[ST_POS]:]``).
"""

ST_HAND = 0  # ST_HAND + seat: that seat's hand mask (private)
ST_PILE_MASK = 2  # public: cards now in the discard pile
ST_PILE_LEN = 3  # public
ST_POS = 4  # public as the stock size 52 - st[ST_POS]; the next stock card is deck[st[ST_POS]]
ST_TURNS = 5  # public: draws so far
ST_UPCARD_TAKEN = 6  # public
ST_ENDING = 7  # -1 while running, else an ENDING_* code
ST_KNOCKER = 8
ST_KNOCK_DEADWOOD = 9
ST_DEALER = 10  # public
ST_UPCARD = 11  # public
ST_TAKEN = 12  # ST_TAKEN + seat, public: cards that seat took from the pile and still holds
ST_DISCARDED = 14  # ST_DISCARDED + seat, public: every card that seat has discarded
ST_PASSED = 16  # ST_PASSED + seat, public: pile tops that seat declined
ST_KNOCK_LIMIT = 18  # public: this hand's knock limit (Oklahoma: set by the upcard)
ST_MULTIPLIER = 19  # public: the hand's score multiplier (Oklahoma double suits)
ST_SIZE = 20

ENDING_KNOCK = 0  # the knocker laid down 10 cards after a discard
ENDING_BIG_GIN = 1  # all 11 cards melded, no discard
ENDING_DEAD = 2

FULL_DECK = (1 << 52) - 1
