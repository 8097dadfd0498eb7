"""The belief: posterior samples of the opponent's hidden cards from the public history,
by replaying it through the machine with guessed cards."""
