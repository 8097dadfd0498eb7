"""Print one hand of the agent protocol as an external agent sees it (docs/agents.md).

Referees one game between a ginsim strategy (side a, in process) and the plain-Python
example agent (side b, a subprocess) and prints, for the first hand, every line sent to
side b (``->``) and every line it answered (``<-``).

    python scripts/protocol_transcript.py [--a memory2] [--rules eaai] [--seed 3]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ginsim.table import external
from ginsim.table.protocol import encode
from ginsim.table.referee import play_match

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="memory2")
    parser.add_argument("--rules", default="eaai")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    lines: list[str] = []
    send, ask = external.ExternalAgent.send, external.ExternalAgent.ask

    def logged_send(self, message, event=""):
        if message.get("type") != "decide":
            lines.append("-> " + encode(message).strip())
        return send(self, message, event)

    def logged_ask(self, message, timeout_ms, event=""):
        lines.append("-> " + encode(message).strip())
        answer = ask(self, message, timeout_ms, event)
        lines.append("<- " + encode(answer).strip())
        return answer

    external.ExternalAgent.send, external.ExternalAgent.ask = logged_send, logged_ask
    play_match(args.a, f"exec:{sys.executable} {ROOT / 'adapters' / 'example_agent.py'}", 1,
               args.rules, args.seed, timeout_ms=5000)
    first = next(i for i, line in enumerate(lines) if '"type":"showdown"' in line)
    print("\n".join(lines[:first + 1]))


if __name__ == "__main__":
    main()
