"""What Greek Rami is: cards, rules, melds, candidate moves and scoring."""
