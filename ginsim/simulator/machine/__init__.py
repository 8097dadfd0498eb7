"""The hand machine: the board (one int64 hand state), the deal, the moves, and ``step``
and ``legal``, the only code that moves cards. Every driver plays a hand through it."""
