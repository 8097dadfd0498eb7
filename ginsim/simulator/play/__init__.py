"""The hand loop and whole games: drivers that deal hands, step them through the
machine with the seats' policies, and record them."""
