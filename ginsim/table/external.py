"""Agents seated by a referee: in-process ginsim agents and external programs.

An external agent is a subprocess that speaks the agent protocol (docs/agents.md) on its
stdin/stdout. Every read waits with ``select`` and a deadline, every write too, so an
agent that answers late, stops reading, writes bad JSON or dies becomes an
:class:`AgentFault` (one line naming the agent and the event) instead of a hang; what
it writes is read through the protocol's bounded reader (a line without end, JSON
nested too deep or an integer of too many digits is a fault too, found before it is
held whole or parsed). The program starts in a session of its own, and the referee
kills that whole process group on a fault, a timeout and at the end, so nothing it
started (a wrapper script's children, a child it left behind) outlives the match; the
next game starts a fresh one.
"""

from __future__ import annotations

import os
import select
import shlex
import signal
import subprocess
import tempfile
import time
from typing import Any

from .protocol import READ_CHUNK, LineReader, ProtocolError, decode, encode

WRITE_TIMEOUT_S = 5.0  # an agent that reads nothing for this long has stopped
BYE_WAIT_S = 1.0  # how long a closed agent may take to exit before it is killed
START_WAIT_S = 0.05  # a crash right at start shows its exit code rather than a broken pipe
START_GRACE_MS = 30_000  # a freshly started program's first answer may take this long
REAP_WAIT_S = 5.0  # the most a killed process group's leader is waited for


class AgentFault(Exception):
    """An agent broke the protocol: late, illegal, bad JSON or gone (one line)."""

    def __init__(self, agent: str, event: str, what: str) -> None:
        super().__init__(f"agent {agent} {what} ({event})")
        self.agent, self.event, self.what = agent, event, what


class LocalAgent:
    """A ginsim :class:`~ginsim.table.agents.Agent` called in this process."""

    def __init__(self, agent: Any, name: str) -> None:
        self.agent, self.name = agent, name

    def start(self) -> None:
        """Nothing to start: the agent object lives as long as the match."""

    def send(self, message: dict[str, Any], event: str = "") -> None:
        self.agent.handle(message)

    def ask(self, message: dict[str, Any], timeout_ms: int, event: str = "") -> dict[str, Any]:
        reply = self.agent.handle(message)
        if not isinstance(reply, dict):
            raise AgentFault(self.name, event, "gave no answer")
        return reply

    def close(self) -> None:
        """Nothing to close."""


class ExternalAgent:
    """A program that speaks the agent protocol on stdin/stdout (``exec:COMMAND``)."""

    def __init__(self, command: str, name: str) -> None:
        try:
            self.argv = shlex.split(command)
        except ValueError as exc:  # an unterminated quote
            raise ValueError(f"agent {name}: exec:{command} cannot be split into a command "
                             f"line ({str(exc).lower()}): close its quotes") from None
        if not self.argv:
            raise ValueError(f"agent {name}: exec: needs a command, e.g. "
                             f"exec:python adapters/example_agent.py")
        self.name = name
        self.proc: subprocess.Popen | None = None
        self.write_timeout_s = WRITE_TIMEOUT_S
        self.start_grace_ms = START_GRACE_MS
        self._fresh = False
        self._lines = LineReader(self._no_read)
        self._stderr = None

    def start(self) -> None:
        """Start the program (again, after a fault); ValueError when it cannot run."""
        self.close()
        self._stderr = tempfile.TemporaryFile()
        try:
            # a session (and process group) of its own: killed as one, see kill_group
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=self._stderr,
                                         bufsize=0, start_new_session=True)
        except OSError as exc:
            raise ValueError(f"agent {self.name}: cannot run {self.argv[0]!r}: "
                             f"{exc.strerror or exc}") from None
        os.set_blocking(self.proc.stdin.fileno(), False)
        self._lines = LineReader(self._no_read)
        self._fresh = True

    def send(self, message: dict[str, Any], event: str = "") -> None:
        """Write one message; an agent that does not take it within a few seconds, or
        has gone, is an AgentFault."""
        data = encode(message).encode()
        fd = self._running(event).stdin.fileno()
        deadline = time.monotonic() + self.write_timeout_s
        while data:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([], [fd], [], left)[1]:
                raise self._fault(event, f"read nothing for {self.write_timeout_s:g} s")
            try:
                data = data[os.write(fd, data):]
            except BlockingIOError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                raise self._fault(event, "crashed") from None

    def ask(self, message: dict[str, Any], timeout_ms: int, event: str = "") -> dict[str, Any]:
        """Send a decision and read the answer line within ``timeout_ms`` (the first
        answer after a start within ``start_grace_ms``, by default :data:`START_GRACE_MS`:
        programs take time to load)."""
        self.send(message, event)
        allowance = ""
        if self._fresh:
            self._fresh = False
            if self.start_grace_ms > timeout_ms:
                timeout_ms, allowance = self.start_grace_ms, ", its first answer's start-up time"
        fd = self._running(event).stdout.fileno()
        deadline = time.monotonic() + timeout_ms / 1000
        line = self._lines.pop_line()
        while line is None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise self._fault(event, f"answered late (nothing within {timeout_ms} ms"
                                         f"{allowance})")
            chunk = os.read(fd, READ_CHUNK)
            if not chunk:
                raise self._fault(event, "crashed")
            try:
                self._lines.feed(chunk)
            except ProtocolError as exc:
                raise self._fault(event, f"sent {exc}") from None
            line = self._lines.pop_line()
        try:
            return decode(line)
        except ProtocolError as exc:
            raise self._fault(event, f"sent {exc}") from None

    @staticmethod
    def _no_read(size: int) -> bytes:
        """The reader's own reads are not used: :meth:`ask` reads with a deadline."""
        return b""

    def close(self) -> None:
        """Say bye, give the program a moment to exit, then kill its whole process group
        (what it started and left behind too); always reaped."""
        proc, self.proc = self.proc, None
        if proc is not None:
            if proc.returncode is None:
                try:  # non-blocking: a program whose input is full gets no bye, not a hang
                    os.write(proc.stdin.fileno(), encode({"type": "bye"}).encode())
                except OSError:
                    pass
                try:
                    proc.stdin.close()
                except OSError:
                    pass
                _wait_unreaped(proc, BYE_WAIT_S)
            kill_group(proc)
            for stream in (proc.stdin, proc.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    def kill(self) -> None:
        """Stop the program and its process group at once (after a fault) and reap it."""
        if self.proc is not None:
            kill_group(self.proc)
        self.close()

    def _running(self, event: str) -> subprocess.Popen:
        if self.proc is None:
            raise self._fault(event, "is not running")
        return self.proc

    def _fault(self, event: str, what: str) -> AgentFault:
        """The fault, with the exit code and the last line of stderr of a dead program;
        the program is killed."""
        proc = self.proc
        if proc is not None and what == "crashed":
            code = _wait_unreaped(proc, START_WAIT_S * 10)
            what = "closed its output" if code is None else f"crashed (exit code {code})"
        tail = self._stderr_tail()
        self.kill()
        return AgentFault(self.name, event, what + (f"; its last words: {tail}" if tail else ""))

    def _stderr_tail(self) -> str:
        if self._stderr is None:
            return ""
        try:
            self._stderr.seek(0, os.SEEK_END)
            size = self._stderr.tell()
            self._stderr.seek(max(0, size - 2000))
            lines = self._stderr.read().decode("utf-8", errors="replace").strip().splitlines()
        except OSError:
            return ""
        return lines[-1][:160] if lines else ""


def _wait_unreaped(proc: subprocess.Popen, seconds: float) -> int | None:
    """Wait up to ``seconds`` for ``proc`` to exit without reaping it (its pid, and so
    its process group's id, stays taken until :func:`kill_group` has used it); its exit
    code as Popen gives it (minus the signal that ended it), None while it runs."""
    deadline = time.monotonic() + seconds
    while True:
        if proc.returncode is not None:
            return proc.returncode
        try:
            info = os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:  # reaped elsewhere: no code to tell
            return -1
        if info is not None:
            return info.si_status if info.si_code == os.CLD_EXITED else -info.si_status
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        time.sleep(min(0.01, left))


def kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL the process group ``proc`` leads (its session: it was started with
    ``start_new_session``) and reap ``proc``. The group is killed before the leader is
    reaped, so its id cannot have passed to another process; a member that made a
    session of its own (``setsid``) has left the group and is not reached."""
    if proc.returncode is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass  # the group is empty: nothing is left to end
    try:
        proc.wait(REAP_WAIT_S)
    except subprocess.TimeoutExpired:  # not seen: SIGKILL ends a process at once
        pass
