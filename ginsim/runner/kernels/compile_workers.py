"""Compile workers: spawned processes that compile kernel groups (each rebuilt from its
recipe) and write numba's cache, for :mod:`ginsim.runner.kernels.compiling`.

They live no longer than their command. Each worker exits as soon as the command's
process does, however it ends (``kill -9`` included): a thread waits on the parent's
sentinel, which the system closes when the parent exits. While they run, SIGTERM and
SIGHUP of the command stop them and end it with 143 or 129 and one line on stderr
(:class:`CommandEnded`); Ctrl-C reaches the whole process group, and the command,
not the worker, stops them.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import sys
import threading
import time
import traceback
from collections.abc import Iterator, Mapping, Sequence
from importlib import import_module
from typing import Any

#: A :class:`~ginsim.runner.kernels.compiling.KernelGroup` (that module imports this one).
Group = Any


def group_from_recipe(recipe: tuple[str, tuple]) -> Group:
    """The group ``("module:NAME", args)`` names: ``NAME[args[0]]`` where NAME is a
    mapping of groups, else ``NAME(*args)`` (plain values, so a spawned process can
    rebuild a group whose compile call is a lambda)."""
    where, args = recipe
    module, _, name = where.partition(":")
    found = getattr(import_module(module), name)
    return found[args[0]] if isinstance(found, Mapping) else found(*args)


def _end_with_parent() -> None:
    """In a worker: exit when the command that started it does (see above), and ignore
    Ctrl-C, which the command handles by stopping its workers."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        parent.join()
        os._exit(1)

    threading.Thread(target=watch, name="ginsim-parent-watch", daemon=True).start()
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _work(tasks: Any, results: Any, rules: Any) -> None:
    """A worker process: compile each batch of ``(name, recipe)`` from ``tasks`` (None:
    stop) and put ``(name, seconds, error)`` on ``results`` as each group ends (error:
    None, or the end of the traceback); it ends when its command does."""
    _end_with_parent()
    while (batch := tasks.get()) is not None:
        for name, recipe in batch:
            start, error = time.perf_counter(), None
            try:
                group_from_recipe(recipe).compile(rules)
            except Exception:  # noqa: BLE001 (the parent compiles the group itself)
                error = traceback.format_exc(limit=-4)
            results.put((name, time.perf_counter() - start, error))


#: The signals that end a command with its compile workers: exit 128 + the signal's
#: number (143, 129), after one line on stderr.
END_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP")
                    if hasattr(signal, name))


class CommandEnded(SystemExit):
    """SIGTERM or SIGHUP while compile workers ran: the command exits ``128 + signal``
    once its ``finally`` blocks have stopped the workers."""


def _end_command(signum: int, frame: object) -> None:
    name = signal.Signals(signum).name
    print(f"ginsim: ended by {name}; its kernel compiling workers stopped with it",
          file=sys.stderr, flush=True)
    raise CommandEnded(128 + signum)


def _catch_end_signals() -> dict[int, Any]:
    """Make :data:`END_SIGNALS` end the command through :class:`CommandEnded` (only the
    main thread can); returns the handlers to put back."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {signum: signal.signal(signum, _end_command) for signum in END_SIGNALS}


class CompileWorkers:
    """Spawned processes that compile batches of groups (each group rebuilt from its
    recipe) and write numba's cache; :meth:`results` reports each group as it ends.
    They live no longer than the command: SIGTERM or SIGHUP of the command stops them
    (:class:`CommandEnded`), and each ends by itself when the command is killed."""

    def __init__(self, batches: Sequence[Sequence[Group]], rules: Any,
                 processes: int) -> None:
        context = multiprocessing.get_context("spawn")
        self._tasks, self._results = context.Queue(), context.Queue()
        self._tasks.cancel_join_thread()  # never wait at exit on tasks no worker took
        self.pending = {group.name: group for batch in batches for group in batch}
        for batch in batches:
            self._tasks.put([(group.name, group.recipe) for group in batch])
        self._processes: list[Any] = []
        self._handlers = _catch_end_signals()
        try:
            for _ in range(processes):
                self._tasks.put(None)
                process = context.Process(target=_work, name="ginsim-compile",
                                          args=(self._tasks, self._results, rules))
                process.start()
                self._processes.append(process)
        except BaseException:
            self.close()
            raise

    def results(self) -> Iterator[tuple[Group, float, str | None]]:
        """``(group, seconds, error)`` for each group as its worker ends it; a group whose
        worker died before ending it gets the exit code as its error."""
        while self.pending:
            alive = any(process.is_alive() for process in self._processes)
            try:
                name, seconds, error = self._results.get(timeout=0.2)
            except queue.Empty:
                if alive:
                    continue
                codes = ", ".join(str(p.exitcode) for p in self._processes)
                for name in list(self.pending):
                    yield self.pending.pop(name), 0.0, f"its worker process ended ({codes})"
                return
            yield self.pending.pop(name), seconds, error

    def close(self) -> None:
        """Stop the workers: at once where they still compile (numba writes each cache
        file whole, so a stopped worker leaves no broken entry)."""
        for process in self._processes:
            if process.is_alive():
                process.terminate()
        for process in self._processes:
            process.join(timeout=10)
        handlers, self._handlers = self._handlers, {}
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
