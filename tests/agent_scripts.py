"""Agent programs for the tests of the referee, the tournament and the transport: each
answers every decision with its first legal move, and breaks as a test asks."""

from __future__ import annotations

import textwrap


def first_legal_agent(fault_at: int = -1, fault: str = "pass", prelude: str = "",
                      on_message: str = "") -> str:
    """The program's text: ``prelude`` runs first; ``on_message`` on each message but the
    last (``m`` the message, ``line`` its text); at decision ``fault_at`` (1 is the first;
    -1 never) ``fault`` runs before the answer."""
    body = textwrap.indent(textwrap.dedent(on_message), " " * 4)
    fault = textwrap.indent(textwrap.dedent(fault), " " * 8)
    return (f"import json, os, subprocess, sys, time\n{textwrap.dedent(prelude)}\n"
            "count = 0\n"
            "for line in sys.stdin:\n"
            "    m = json.loads(line)\n"
            '    if m["type"] == "bye":\n'
            "        break\n"
            f"{body}\n"
            '    if m["type"] != "decide":\n'
            "        continue\n"
            "    count += 1\n"
            f"    if count == {fault_at}:\n"
            f"{fault}\n"
            '    words = m["legal"][0].split()\n'
            '    answer = {"action": words[0]}\n'
            "    if len(words) > 1:\n"
            '        answer["card"] = words[1]\n'
            "    print(json.dumps(answer), flush=True)\n")
