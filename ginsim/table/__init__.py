"""Step-by-step play: the :class:`Table`, a seat's view, agents, the agent protocol and
the referee of ``ginsim match``."""
