"""The machine's one table of refusals: every step of the machine (knocking gin's
:func:`~ginsim.simulator.machine.step_nb.step_nb` and Mahjong gin's
:func:`~ginsim.simulator.machine.mahjong_nb.mahjong_step_nb`) returns ``OK`` (or an
``ACTION_*`` code) or ``-ERR_*`` with the position unchanged, the codes below;
``ERRORS[code]`` says it in words."""

OK = 0
ERR_PHASE = 1  # the move is not one of this phase's (the hand is over, or another phase)
ERR_TURN = 2  # the other seat is to act
ERR_NOT_HELD = 3  # the card (or a card of the meld) is not in the player's hand
ERR_FORBIDDEN = 4  # the card was just taken from the pile
ERR_KNOCK_LIMIT = 5  # the deadwood kept is above the hand's knock limit
ERR_PILE = 6  # no pile draw now: the pile is empty, or both passed the upcard
ERR_BIG_GIN = 7  # big gin is off under these rules
ERR_MUST_KNOCK = 8  # the final discard may be taken only to knock (50th-card rule)
# Mahjong gin's own refusals (docs/rules.md §8.8)
ERR_DEPTH = 9  # the pile (or the stock) holds fewer cards than the draw asks for, or depth < 1
ERR_LOWEST = 10  # the lowest card of a multi-card take cannot be laid this turn
ERR_NOT_MELD = 11  # the cards (with the table meld they extend) are not a meld
ERR_SLOT = 12  # no such meld on the table
ERR_MUST_LAY = 13  # the lowest card of this turn's multi-card take is still in hand
ERR_NOT_OUT = 14  # going out without a discard: cards left, or the rules want a discard
ERR_STUCK = 15  # after the take no way to lay its lowest card and still discard remains

ERRORS = ("ok", "not a move of this phase", "out of turn", "card not held",
          "that card was just taken from the pile: discard another",
          "above the hand's knock limit", "no pile draw now", "big gin is off under these rules",
          "the final discard may be taken only to knock",
          "the pile or the stock holds fewer cards than that",
          "the lowest card taken cannot be laid this turn", "not a meld",
          "no such meld on the table", "the lowest card taken must be laid first",
          "cards are left, or these rules want a final discard",
          "after that take no way remains to lay its lowest card and still discard")
