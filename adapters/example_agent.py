#!/usr/bin/env python3
"""A tiny gin rummy agent for ginsim's agent protocol, in plain Python (no ginsim).

It reads one JSON message per line on stdin and answers each "decide" with one JSON line
on stdout (docs/agents.md). It plays naively: it takes a pile card only when the card
makes a meld with its hand, discards the card that leaves the least deadwood, and knocks
as soon as that discard allows it. Try it against a ginsim strategy:

    ginsim match --a memory2 --b "exec:python adapters/example_agent.py" --games 100
"""

import json
import sys
from itertools import combinations

RANKS = "A23456789TJQK"
SUITS = "SHDC"


def card(text):
    """(rank 0..12, suit 0..3) of a card such as "TD" (also "10D")."""
    text = text.upper().replace("10", "T")
    return RANKS.index(text[0]), SUITS.index(text[1])


def value(c):
    return min(c[0] + 1, 10)


def melds(cards):
    """Every set (3 or 4 of a rank) and run (3+ in a suit) among ``cards``."""
    found = []
    for rank in range(13):
        same = [c for c in cards if c[0] == rank]
        for size in (3, 4):
            found += [frozenset(m) for m in combinations(same, size)]
    for suit in range(4):
        ranks = sorted(c[0] for c in cards if c[1] == suit)
        for low in ranks:
            high = low
            while high + 1 in ranks:
                high += 1
                if high - low >= 2:
                    found.append(frozenset((r, suit) for r in range(low, high + 1)))
    return found


def deadwood(cards):
    """The least deadwood over every way of laying disjoint melds (exact, by recursion)."""
    cards = frozenset(cards)
    best = sum(value(c) for c in cards)
    for meld in melds(cards):
        best = min(best, deadwood(cards - meld))
    return best


class Player:
    """What the agent remembers of a hand: its cards and the top of the discard pile."""

    def __init__(self):
        self.seat, self.hand, self.top = 0, set(), None

    def see(self, msg):
        kind = msg["type"]
        if kind == "hand":
            self.seat, self.hand = msg["seat"], {card(t) for t in msg["cards"]}
            self.top = card(msg["upcard"]) if msg.get("upcard") else None
        elif kind == "event":
            c = card(msg["card"]) if msg.get("card") else None
            if msg["action"] in ("take", "pile"):
                self.top = None
                if msg["seat"] == self.seat:
                    self.hand.add(c)
            elif msg["action"] == "stock" and msg["seat"] == self.seat:
                self.hand.add(c)
            elif msg["action"] in ("discard", "knock"):
                self.top = c
                if msg["seat"] == self.seat:
                    self.hand.discard(c)

    def decide(self, msg):
        legal = msg["legal"]
        if "take" in legal or "pile" in legal:
            joins = self.top is not None and any(self.top in m
                                                 for m in melds(self.hand | {self.top}))
            if "take" in legal:
                return {"action": "take" if joins else "pass"}
            return {"action": "pile" if joins else "stock"}
        if legal == ["stock"] or legal == ["pass"]:
            return {"action": legal[0]}
        options = [entry.split() for entry in legal if entry.split()[0] in ("discard",
                                                                             "knock")]
        left = {text: deadwood(self.hand - {card(text)}) for _, text in options}
        least = min(left.values())
        for kind, text in sorted(options, key=lambda o: o[0] != "knock"):
            if left[text] == least:
                return {"action": kind, "card": text}
        return {"action": legal[0]}


def main():
    player = Player()
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "bye":
            break
        if msg["type"] == "decide":
            print(json.dumps(player.decide(msg)), flush=True)
        else:
            player.see(msg)


if __name__ == "__main__":
    main()
