"""Agents seated by a referee: in-process ginsim agents and external programs.

An external agent is a subprocess that speaks the agent protocol (docs/agents.md) on its
stdin/stdout. Every read waits with ``select`` and a deadline, every write too, so an
agent that answers late, stops reading, writes bad JSON or dies becomes an
:class:`AgentFault` (one line naming the agent and the event) instead of a hang; a
faulted process is killed and reaped, and the next game starts a fresh one.
"""

from __future__ import annotations

import os
import select
import shlex
import subprocess
import tempfile
import time
from typing import Any

from .protocol import ProtocolError, decode, encode

WRITE_TIMEOUT_S = 5.0  # an agent that reads nothing for this long has stopped
BYE_WAIT_S = 1.0  # how long a closed agent may take to exit before it is killed
START_WAIT_S = 0.05  # a crash right at start shows its exit code rather than a broken pipe
START_GRACE_MS = 30_000  # a freshly started program's first answer may take this long


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
        self._buffer = b""
        self._stderr = None

    def start(self) -> None:
        """Start the program (again, after a fault); ValueError when it cannot run."""
        self.close()
        self._stderr = tempfile.TemporaryFile()
        try:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=self._stderr,
                                         bufsize=0)
        except OSError as exc:
            raise ValueError(f"agent {self.name}: cannot run {self.argv[0]!r}: "
                             f"{exc.strerror or exc}") from None
        os.set_blocking(self.proc.stdin.fileno(), False)
        self._buffer = b""
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
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise self._fault(event, f"answered late (nothing within {timeout_ms} ms"
                                         f"{allowance})")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise self._fault(event, "crashed")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        try:
            return decode(line.decode("utf-8", errors="replace"))
        except ProtocolError as exc:
            raise self._fault(event, f"sent {exc}") from None

    def close(self) -> None:
        """Say bye, give the program a moment to exit, then kill it; always reaped."""
        proc, self.proc = self.proc, None
        if proc is not None:
            if proc.poll() is None:
                try:
                    os.set_blocking(proc.stdin.fileno(), True)
                    proc.stdin.write(encode({"type": "bye"}).encode())
                    proc.stdin.close()
                except OSError:
                    pass
                try:
                    proc.wait(BYE_WAIT_S)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            for stream in (proc.stdin, proc.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    def kill(self) -> None:
        """Stop the program at once (after a fault) and reap it."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
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
            try:
                code = proc.wait(START_WAIT_S * 10)
                what = f"crashed (exit code {code})"
            except subprocess.TimeoutExpired:
                what = "closed its output"
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
