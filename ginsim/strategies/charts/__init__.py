"""Knock charts as data: the hand-level charts (:mod:`.knock_charts`), the shipped
equilibrium charts by rules (:mod:`.equilibria`) and the charts by game score
(:mod:`.score_charts`)."""
