"""The five players a newcomer meets, in words a player knows: what each does in one
sentence and how strong it is, with the measured figure and the command that measured it.

``ginsim strategies`` and the report's "Who are these players" table both read
:data:`PLAYERS`, so the words exist once. The figures are games to 100 won against
``simple`` under modern rules, as docs/strength.md reports them with their commands; a
report that measures a player itself (its strategies study) shows its own figure instead.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Where the figures are reported, with the rest of the players' measurements.
STRENGTH_DOC = "docs/strength.md"


@dataclass(frozen=True)
class Player:
    """One preset as a player knows it: ``does`` (one plain sentence), the share of games
    to 100 it won against ``simple`` with its Wilson 95% interval (percent), over how
    many games, and the ``command`` that measured it."""

    name: str
    does: str
    won: float
    low: float
    high: float
    games: int
    command: str

    @property
    def strength(self) -> str:
        """The figure in words, e.g. "wins 71.9% [71.3, 72.5] of 20,000 games to 100
        against simple (modern rules)"."""
        return (f"wins {self.won:.1f}% [{self.low:.1f}, {self.high:.1f}] of {self.games:,} "
                f"games to 100 against simple (modern rules)")


def _games(name: str) -> str:
    return f"ginsim games --a {name} --b simple --games 20000 --seed 11"


PLAYERS: tuple[Player, ...] = (
    Player("simple", "Takes a pile card only when it completes a meld, discards whatever "
           "leaves the least deadwood, and knocks the moment it may: the baseline bot of "
           "the EAAI gin rummy challenge.", 49.88, 49.18, 50.57, 20_000, _games("simple")),
    Player("memory2", "Plays like simple but remembers the discards and the opponent's "
           "pickups and passes: it keeps cards that can still make melds, holds back "
           "cards the opponent wants, and waits for gin when an undercut looks likely.",
           60.09, 59.41, 60.77, 20_000, _games("memory2")),
    Player("equilibrium", "memory2's card play with a knock chart (by deadwood and cards "
           "left in the stock) that no opponent with the same card play can beat by "
           "knocking differently.", 69.95, 69.31, 70.58, 20_000, _games("equilibrium")),
    Player("expert", "memory2's memory with judgement added: it weighs how safe each "
           "discard is and what each card could still become as the hand goes on, and "
           "knocks by a chart of when knocking pays for its own card play.",
           71.94, 71.31, 72.55, 20_000, _games("expert")),
    Player("mc", "A search player: at every choice it guesses the opponent's hidden cards "
           "from what it has seen, plays each option out many times with a card play "
           "learned from its own searches, and learns from hand to hand which kind of "
           "opponent it faces; slow (tens of hands a second).", 76.6, 74.7, 78.5, 2_000,
           "python scripts/mc_strength.py games --spec mc --games 2000 --opponent simple "
           "--seed 2026 --n-jobs 2"),
)
