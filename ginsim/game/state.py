"""Layout of a hand in progress: one int64 array, the *hand state* ``hs``, shared by the
turn phases (:mod:`ginsim.simulator.play.drive_nb`), the policy kernel and the showdown.

The hand state is the *position* from index 0 (``POSITION_START``): the fields below,
the discard pile (``hs[ST_PILE:]``, bottom first, ``ST_PILE_LEN`` cards), the shuffled
deck (``hs[ST_DECK:]``; the stock is ``deck[hs[ST_POS]:]``), the knocker's melds and
the hand's result; then the shuffle's scratch. Copying
``hs[POSITION_START:POSITION_END]`` (and the random streams) branches a hand.

A kernel that decides or scores (it needs meld scratch as well as the position) takes
a :class:`Board`: the hand state with its own scratch, the meld kernels' ``work``
(int64[WORK_SIZE], :mod:`ginsim.game.melds_nb`) and Mahjong gin's plan search scratch
``plan`` (int64[PLAN_SIZE], read through the named views ``PlanWork`` of
:mod:`ginsim.strategies.mahjong_plan_nb`). Kernels that only
read or move the position take ``hs`` alone.

Public fields (what both players see) are marked; a policy reads only those and its
own hand.
"""

from collections import namedtuple

#: A hand state and the scratch of the kernels that decide and score on it: ``hs``
#: (int64[HS_SIZE]), ``work`` (the meld scratch, int64[WORK_SIZE]) and ``plan`` (the
#: Mahjong plan search's, int64[PLAN_SIZE]: three arrays, so that passing a board between
#: kernels stays cheap). Made in the Python layer
#: (:func:`ginsim.simulator.machine.buffers.new_board`); a branch of a hand has a board of its
#: own, so the scratch of the hand it branched from stays as it was.
Board = namedtuple("Board", ("hs", "work", "plan"))

ST_BASE = 0
POSITION_START = ST_BASE
ST_HAND = ST_BASE + 0  # ST_HAND + seat: that seat's hand mask (private)
ST_PILE_MASK = ST_BASE + 2  # public: cards now in the discard pile
ST_PILE_LEN = ST_BASE + 3  # public
ST_POS = ST_BASE + 4  # public as the stock size 52 - hs[ST_POS]; next stock card deck[pos]
ST_TURNS = ST_BASE + 5  # public: draws so far
ST_UPCARD_TAKEN = ST_BASE + 6  # public
ST_ENDING = ST_BASE + 7  # -1 while running, else an ENDING_* code
ST_KNOCKER = ST_BASE + 8
ST_KNOCK_DEADWOOD = ST_BASE + 9
ST_DEALER = ST_BASE + 10  # public
ST_UPCARD = ST_BASE + 11  # public
ST_TAKEN = ST_BASE + 12  # ST_TAKEN + seat, public: cards that seat took from the pile, held
ST_DISCARDED = ST_BASE + 14  # ST_DISCARDED + seat, public: every card that seat discarded
ST_PASSED = ST_BASE + 16  # ST_PASSED + seat, public: pile tops that seat declined
ST_KNOCK_LIMIT = ST_BASE + 18  # public: this hand's knock limit (Oklahoma: the upcard's)
ST_MULTIPLIER = ST_BASE + 19  # public: the hand's score multiplier (Oklahoma double suits)
ST_HAND_ID = ST_BASE + 20  # the hand's index (trace rows carry it)
ST_TRACE_ROW = ST_BASE + 21  # next row of the optional per-turn trace
ST_DRAWN = ST_BASE + 22  # the card drawn this turn (-1 before the draw)
ST_SOURCE = ST_BASE + 23  # SOURCE_* of this turn's draw
ST_FORBIDDEN = ST_BASE + 24  # mask of the card taken from the pile this turn (0 otherwise)
ST_PLANNED = ST_BASE + 25  # 1 when the draw decision already chose the discard below
ST_PLAN_DISCARD = ST_BASE + 26
ST_PLAN_DEADWOOD = ST_BASE + 27
ST_PLAN_KNOCK = ST_BASE + 28
ST_PLAN_BIG_GIN = ST_BASE + 29
ST_PILE_TAKES = ST_BASE + 30  # ST_PILE_TAKES + seat, public: pile takes so far
ST_PHASE = ST_BASE + 32  # public: the PH_* phase of the hand machine
ST_TO_MOVE = ST_BASE + 33  # public: the seat to act (-1 once the hand is over)
ST_STOCK_ONLY = ST_BASE + 34  # public: 1 on the non-dealer's draw after both passed the upcard
ST_FIELDS = 35
ST_PILE = ST_BASE + ST_FIELDS  # 52 slots: the discard pile, bottom first
ST_DECK = ST_PILE + 52  # 52 slots: the deck in dealing order
ST_KMELDS = ST_DECK + 52  # 4 slots: the knocker's melds at the showdown
# Mahjong gin (docs/rules.md §8.8), cleared by its deal: the melds face up on the table
# (public), the card a multi-card pile take obliges its taker to lay this turn, and the
# hand's pile-card counters.
MJ_TABLE_SLOTS = 18  # 52 cards hold at most 17 melds
ST_TABLE = ST_KMELDS + 4  # MJ_TABLE_SLOTS slots: each meld on the table, as a mask
ST_TABLE_N = ST_TABLE + MJ_TABLE_SLOTS  # public: melds on the table
ST_MUST_LAY = ST_TABLE_N + 1  # mask of the lowest card of this turn's multi-card take
ST_PILE_CARDS = ST_MUST_LAY + 1  # cards taken from the pile this hand, both seats
ST_MAX_PILE_TAKE = ST_PILE_CARDS + 1  # the largest single take this hand
RES_BASE = ST_MAX_PILE_TAKE + 1
RES_OUTCOME = RES_BASE + 0  # OUT_* code of :mod:`ginsim.game.scoring.hand_scoring_nb`
RES_KNOCKER = RES_BASE + 1  # seat that knocked, -1 for a dead hand
RES_KNOCKER_DEADWOOD = RES_BASE + 2  # K (0 for gin), -1 if dead
RES_DEFENDER_BEFORE = RES_BASE + 3  # the defender's own best deadwood, -1 if dead
RES_DEFENDER_DEADWOOD = RES_BASE + 4  # D after layoffs, -1 if dead
RES_POINTS = RES_BASE + 5  # RES_POINTS + seat: points that seat scored in the hand
RES_STOCK_LEFT = RES_BASE + 7  # cards left in the stock when the hand ended
RES_PILE_CARDS = RES_BASE + 8  # cards taken from the pile in the hand, both seats
RES_MAX_PILE_TAKE = RES_BASE + 9  # the largest single pile take (standard play: 0 or 1)
POSITION_END = RES_BASE + 10
ST_DRAWS = POSITION_END  # 52 slots of scratch for the shuffle's random numbers
HS_SIZE = ST_DRAWS + 52

ENDING_KNOCK = 0  # the knocker laid down 10 cards after a discard
ENDING_BIG_GIN = 1  # all 11 cards melded, no discard
ENDING_DEAD = 2

# The hand machine's phases (hs[ST_PHASE]); :mod:`ginsim.simulator.machine.board_nb` moves a
# hand from one to the next and refuses what the phase does not allow.
#: The kinds of action a seat takes, and of the events a hand's history records (one
#: encoding for the machine, the drivers' memories, the belief and the public history;
#: names only at the edges: the Table's events, the protocol): take the upcard, pass (the
#: upcard, or the final discard), draw from the stock, take the pile's top card,
#: discard, knock (a discard, then lay down), big gin; and Mahjong gin's two (docs/rules.md
#: §8.8): lay a meld face up on the table, extend a table meld. Mahjong gin also draws
#: with ``pile`` (a take of one or more cards) and ``stock``, discards with ``discard``
#: and goes out without a discard with ``big_gin``
#: (:func:`~ginsim.simulator.machine.mahjong_nb.mahjong_step_nb`). New kinds go last, so
#: the codes stay.
ACTION_KINDS = ("take", "pass", "stock", "pile", "discard", "knock", "big_gin", "meld",
                "extend")
(A_TAKE, A_PASS, A_STOCK, A_PILE, A_DISCARD, A_KNOCK, A_BIG_GIN, A_MELD,
 A_EXTEND) = range(len(ACTION_KINDS))

PH_OFFER = 0  # the upcard is offered to hs[ST_TO_MOVE]: take it or pass
PH_DRAW = 1  # draw from the stock or the pile (stock only on the first turn after offers)
PH_DISCARD = 2  # 11 cards: discard, knock (a discard, then lay down) or big gin
PH_LAST_DISCARD = 3  # the 50th-card rule: the final discard may be taken only to knock
PH_OVER = 4  # ended by a knock, gin or big gin; the showdown scores it
PH_DEAD = 5  # ended without a knock: nobody scores
PHASE_NAMES = ("offer", "draw", "discard", "last_discard", "over", "dead")

SOURCE_DEAL = -1  # no draw: the first turn of the eleven-card deal, or the deal itself
SOURCE_STOCK = 0
SOURCE_PILE = 1

FULL_DECK = (1 << 52) - 1
