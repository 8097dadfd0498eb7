"""Branches of a position: the knock chart's knock-now and wait branches, the mc
knock chart, best responses over charts, and the advisor's rollouts."""
