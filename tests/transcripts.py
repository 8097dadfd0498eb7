"""Seat b's protocol transcript of in-process games, as scripts/protocol_transcript.py
prints it (``->`` the referee's message, ``<-`` the seat's answer)."""

from __future__ import annotations

from ginsim.table import external
from ginsim.table.protocol import encode


def log_seat_b(monkeypatch) -> list[str]:
    """Patch the in-process agents so that every message to seat b and its answers are
    appended to the returned list while the test runs."""
    lines: list[str] = []
    send, ask = external.LocalAgent.send, external.LocalAgent.ask

    def logged_send(self, message, event=""):
        if self.name.startswith("b"):
            lines.append("-> " + encode(message).strip())
        return send(self, message, event)

    def logged_ask(self, message, timeout_ms, event=""):
        answer = ask(self, message, timeout_ms, event)
        if self.name.startswith("b"):
            lines.extend(["-> " + encode(message).strip(), "<- " + encode(answer).strip()])
        return answer

    monkeypatch.setattr(external.LocalAgent, "send", logged_send)
    monkeypatch.setattr(external.LocalAgent, "ask", logged_ask)
    return lines
