"""What a wait shows: a status saying what it waits for and how long it has taken.

Every wait over 2 s in ginsim (compiling kernels, a background compile, ``ginsim play``
starting) says so: :class:`Ticker` renews a status from a thread, in place on a terminal
every :data:`TICK_S` seconds, else a line every :data:`LINE_EVERY_S` seconds;
:class:`Progress` is the compile's bar (:mod:`ginsim.runner.kernels.compiling`) with a ticker.
"""

from __future__ import annotations

import shutil
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from tqdm import tqdm

#: How often a wait's status is renewed, in seconds: in place on a terminal, else a line
#: each time (every wait over 2 s says what it waits for and for how long).
TICK_S, LINE_EVERY_S = 1.0, 2.0


class Ticker:
    """While a block waits, a status on stderr (``stream``) saying what it waits for and
    how long it has taken, renewed every ``every`` seconds (:data:`TICK_S` in place on a
    terminal, :data:`LINE_EVERY_S` a line each otherwise) from a thread; ``tick``, when
    given, renews it instead (a progress bar's refresh)."""

    def __init__(self, what: str | Callable[[], str], stream: Any = None,
                 every: float | None = None, tick: Callable[[float], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.what, self.stream, self.tick, self.clock = what, stream, tick, clock
        self.tty = is_tty(self.stream or sys.stderr)
        self.every = every or (TICK_S if self.tty else LINE_EVERY_S)
        self.start = clock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._shown = False

    def __enter__(self) -> Ticker:
        self.start = self.clock()
        self._thread = threading.Thread(target=self._run, name="ginsim-ticker", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self._shown and self.tty and self.tick is None:
            self._write("\r\x1b[K")

    def elapsed(self) -> float:
        return self.clock() - self.start

    def _run(self) -> None:
        """Renew the status at start + every, + 2 every, ... (no drift when a renewal
        comes late, as it may on a busy machine)."""
        due = self.every
        while not self._stop.wait(max(0.0, due - self.elapsed())):
            self.show()
            due = (self.elapsed() // self.every + 1) * self.every

    def show(self) -> None:
        """Renew the status now."""
        elapsed = self.elapsed()
        if self.tick is not None:
            self.tick(elapsed)
            return
        what = self.what() if callable(self.what) else self.what
        text = f"{what}: {elapsed:.0f} s so far"
        if self.tty:
            self._write("\r" + text[:shutil.get_terminal_size((100, 24)).columns - 1]
                        + "\x1b[K")
        else:
            self._write(text + "\n")
        self._shown = True

    def _write(self, text: str) -> None:
        stream = self.stream or sys.stderr
        stream.write(text)
        stream.flush()


def is_tty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


class Progress:
    """The bar on a terminal, its elapsed time renewed every second while nothing ends,
    else (with ``show``) a line of seconds per group and, every :data:`LINE_EVERY_S`
    seconds, a line naming the groups still compiling and the time so far."""

    def __init__(self, total: int, show: bool, names: Sequence[str] = ()) -> None:
        self.show, self.tty = show, sys.stderr.isatty()
        self.left = list(names)
        self.bar = tqdm(total=total, unit="group", file=sys.stderr,
                        disable=not (show and self.tty), dynamic_ncols=True,
                        bar_format="{l_bar}{bar}| {n}/{total} [{elapsed}]")
        self.ticker = Ticker(lambda: f"  compiling {', '.join(self.left)}",
                             tick=(lambda _: self.bar.refresh()) if self.tty else None)
        if show:
            self.ticker.__enter__()

    def start(self, name: str) -> None:
        self.bar.set_description(name)

    def done(self, name: str, seconds: float) -> None:
        if name in self.left:
            self.left.remove(name)
        self.bar.set_description(name)
        self.bar.update(1)
        if self.show and not self.tty:
            print(f"  {name}: {seconds:.0f} s", file=sys.stderr, flush=True)

    def say(self, line: str) -> None:
        if self.show:
            self.bar.write(line, file=sys.stderr)

    def close(self) -> None:
        if self.show:
            self.ticker.__exit__()
        self.bar.close()
