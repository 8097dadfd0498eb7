"""``ginsim play`` with scripted stdin: a whole game against a bot, mistakes retried."""

import os
import subprocess
import sys
from pathlib import Path

from ginsim.cli.play_view import hint_text, showdown_text
from ginsim.table.agents import Agent, decide_message, hand_message
from ginsim.table.game_table import TableGame
from ginsim.table.table import Action, Table, view_event

ROOT = Path(__file__).resolve().parents[1]


def _script(bot: str, seed: int, target: int) -> tuple[list[str], TableGame]:
    """The lines a memory2 player would type in this game, and the game they give."""
    game = TableGame(bot, "modern", seed, target=target)
    me = Agent.from_spec("memory2")
    lines = []
    while not game.over:
        table = game.deal()
        me.handle(hand_message(table, 0))
        while table.to_move is not None:
            if table.to_move == 1:
                events = game.bot_move()
            else:
                line = Action.from_message(me.handle(decide_message(table))).text()
                lines.append(line)
                events = game.apply(line)
            for event in events:
                me.handle(view_event(event, 0))
        game.finish_hand()
    return lines, game


def test_a_scripted_game_is_played_to_the_target(tmp_path):
    lines, game = _script("simple", 11, 40)
    final = game.score()
    # two mistakes first (a bad card, then drawing at the offer), each refused and retried
    script = ["QQ", "stock" if lines[0] in ("take", "pass") else "take", *lines]
    run = subprocess.run([sys.executable, "-m", "ginsim", "play", "--bot", "simple", "--seed",
                          "11", "--target", "40", "--record", str(tmp_path / "game.jsonl")],
                         input="\n".join(script) + "\n",
                         capture_output=True, text=True, timeout=300, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert out.count("Not allowed:") == 2 and "bad card" in out
    assert out.count("Showdown:") == game.hands_played
    # the winner's score first: "the bot wins 251 to 0", "you win 140 to 35"
    w = final.winner
    assert final.scores[w] >= final.scores[1 - w]
    assert (f"{'you win' if w == 0 else 'the bot wins'} {final.scores[w]} to "
            f"{final.scores[1 - w]}") in out
    assert "Your hand: " in out and "Pile top: " in out and "Stock: " in out


def test_quitting_and_end_of_input_stop_cleanly(tmp_path):
    for stdin in ("quit\n", ""):
        run = subprocess.run([sys.executable, "-m", "ginsim", "play", "--bot", "memory2"],
                             input=stdin, capture_output=True, text=True, timeout=300,
                             cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert run.returncode == 1 and "Game stopped." in run.stdout
    run = subprocess.run([sys.executable, "-m", "ginsim", "play", "--bot", "nosuchbot"],
                         input="", capture_output=True, text=True, timeout=300, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and "nosuchbot" in run.stderr


def test_showdown_and_hint_views():
    table = Table("modern", seed=4, hand=0)
    agents = [Agent.from_spec("simple"), Agent.from_spec("simple")]
    for seat, agent in enumerate(agents):
        agent.handle(hand_message(table, seat))
    hinted = False
    while table.to_move is not None:
        if table.phase == "discard" and table.to_move == 0 and not hinted and table.events:
            text = hint_text(table, table.rules, "simple", rollouts=50)
            assert "Advisor (against simple;" in text and "Recommended" in text
            hinted = True
        reply = agents[table.to_move].handle(decide_message(table))
        for event in table.apply(Action.from_message(reply)):
            for seat, agent in enumerate(agents):
                agent.handle(view_event(event, seat))
    text = showdown_text(table, table.rules)
    assert "Showdown:" in text and "You:" in text and "Bot:" in text
    r = table.result()
    if r["outcome"] != "dead":
        assert f"You {r['points'][0]}, Bot {r['points'][1]} points" in text


def test_a_refusal_echoes_a_few_characters_of_a_long_line():
    """A 10 MB line (or a long bad card) is refused with a short line; play goes on."""
    from ginsim.cli.play_view import MAX_ECHO_CHARS, play_session

    typed = iter(["Q" * 10_000_000, "knock " + "Z" * 30, "quit"])
    shown: list[str] = []
    code = play_session(TableGame("simple", "modern", 2, target=20),
                        lambda prompt: next(typed), shown.append)
    refusals = [line for line in shown if "Not allowed" in line]
    assert code == 1 and shown[-1] == "Game stopped." and len(refusals) == 2
    assert "(10,000,000 characters) is no move" in refusals[0]
    assert "bad card" in refusals[1] or "not an action" in refusals[1]
    assert all(len(line) < MAX_ECHO_CHARS + 150 for line in refusals), refusals


def _typed(lines: list[str], bot: str = "simple", seed: int = 2) -> list[str]:
    """What play_session shows for ``lines`` typed (then quit)."""
    from ginsim.cli.play_view import play_session

    typed = iter([*lines, "quit"])
    shown: list[str] = []
    play_session(TableGame(bot, "modern", seed, target=20), lambda prompt: next(typed),
                 shown.append)
    return shown


def test_help_lists_the_commands_and_a_typo_names_only_the_moves_open_now():
    from ginsim.cli.play_view import HELP

    game = TableGame("simple", "modern", 2, target=20)
    table = game.deal()
    while table.to_move == 1:
        game.bot_move()
    lines = []
    if table.phase == "offer":
        lines.append("pass")  # on to a draw and a discard of ours
    shown = _typed(["help", *lines])
    assert HELP in shown and not any("bad card 'help'" in line for line in shown)
    # at a discard (after drawing from the stock) a typo lists the discard's moves only
    shown = _typed([*lines, "s", "XX"])
    refusal = [line for line in shown if "Not allowed" in line][-1]
    assert "bad card 'XX'" in refusal and "discard a card" in refusal
    for move in ("stock (s)", "pile (p)", "take or pass"):
        assert move not in refusal, refusal


def test_the_hint_names_the_bot_it_advises_against():
    table = Table("modern", seed=4, hand=0, dealer=1)  # the bot deals: our upcard offer
    assert table.to_move == 0 and table.phase == "offer"
    text = hint_text(table, table.rules, "equilibrium", rollouts=50)
    assert "Advisor (against equilibrium;" in text and "models it" not in text
    # the mc bot searches: the advisor says which plain player it models it as
    text = hint_text(table, table.rules, "mc", rollouts=50)
    assert "Advisor (against learned_linear;" in text and "models it as learned_linear" in text
