"""``ginsim play`` with scripted stdin: a whole game against a bot, mistakes retried."""

import os
import subprocess
import sys
from pathlib import Path

from ginsim.cli.play_view import hint_text
from ginsim.reports.hand_words import showdown_text
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
    """``quit`` stops with status 1; the end of input (Ctrl-D, stdin closed) ends the
    game with status 0 and a line saying so, then where the game record is, no traceback."""
    for stdin, code, said in (("quit\n", 1, "Game stopped after 0 finished hands"),
                              ("", 0, "Game ended: input closed after 0 finished hands")):
        run = subprocess.run([sys.executable, "-m", "ginsim", "play", "--bot", "memory2"],
                             input=stdin, capture_output=True, text=True, timeout=300,
                             cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert run.returncode == code and said in run.stdout, (run.stdout, run.stderr)
        assert "Traceback" not in run.stderr
    run = subprocess.run([sys.executable, "-m", "ginsim", "play", "--bot", "simple"],
                         stdin=subprocess.DEVNULL, capture_output=True, text=True,
                         timeout=300, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)})
    *_, ended, recorded = run.stdout.rstrip().splitlines()
    assert run.returncode == 0 and ended.endswith("Bot 0."), run.stdout
    assert recorded.startswith("Game record written to ")
    assert (tmp_path / recorded.removeprefix("Game record written to ")).is_file()
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
            assert "Advisor (against simple;" in text
            # the best is recommended only where its interval clears the next one's
            assert ("  Recommended: " in text) == ("<= best" in text) != ("  Close: " in text)
            assert ("<= close" in text) == ("  Close: " in text)
            hinted = True
        reply = agents[table.to_move].handle(decide_message(table))
        for event in table.apply(Action.from_message(reply)):
            for seat, agent in enumerate(agents):
                agent.handle(view_event(event, seat))
    text = showdown_text(table, table.rules)
    r = table.result()
    assert "Showdown:" in text and "\n    You" in text and "\n    Bot" in text
    if r["outcome"] != "dead":
        assert text.endswith(f" = {max(r['points'])} points."), text


def test_a_refusal_echoes_a_few_characters_of_a_long_line():
    """A 10 MB line (or a long bad card) is refused with a short line; play goes on."""
    from ginsim.cli.play_view import MAX_ECHO_CHARS, play_session

    typed = iter(["Q" * 10_000_000, "knock " + "Z" * 30, "quit"])
    shown: list[str] = []
    code = play_session(TableGame("simple", "modern", 2, target=20),
                        lambda prompt: next(typed), shown.append)
    refusals = [line for line in shown if "Not allowed" in line]
    assert code == 1 and shown[-1].startswith("Game stopped after") and len(refusals) == 2
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


def test_the_hint_knows_the_score():
    """``play --hint`` values each option in games too, at the game's score."""
    from ginsim.cli.play_view import game_score

    game = TableGame("simple", "modern", 4, target=100)
    assert game_score(game) == (0, 0)
    table = Table("modern", seed=4, hand=0, dealer=1)
    text = hint_text(table, table.rules, "simple", rollouts=60, score=(85, 30))
    assert "your chance of winning the game at 85-30" in text and "wins the game" in text
    assert "game table of expert against expert under modern" in text
    rows = [line for line in text.splitlines() if line.startswith("    ")]
    assert len(rows) == 2 and all(" game " in row and "%" in row for row in rows)


# --- showdowns: every ending from a dealt position (docs/rules.md §5-6) ----------------

YOU = "AS 2S 3S 4H 5H 6H 7C 8C 9C KD"  # three melds and a king: take the upcard, knock KD


def _dealt(rules: str, you: str, bot: str, upcard: str, dealer: int = 1) -> Table:
    """A hand dealt as given (seat 0 you, seat 1 the bot; the bot deals, so you are
    offered the upcard first), the stock the other cards in order."""
    from ginsim.game.cards import card_from_text

    a, b = ([card_from_text(c) for c in cards.split()] for cards in (you, bot))
    up = card_from_text(upcard)
    stock = [c for c in range(52) if c not in {*a, *b, up}]
    return Table.from_deal(rules, (a, b), up, stock, dealer)


def _shown(table: Table, moves: list[str], seat: int = 0) -> tuple[str, dict]:
    for move in moves:
        table.apply(move, seat)
    assert table.phase == "over"
    return showdown_text(table, table.rules), table.result()


def test_gin_shows_no_layoffs_and_scores_the_bonus_plus_the_deadwood():
    # the bot's 4S, 3H and JC would lay off after a knock, but nobody lays off against gin
    bot = "QS QH QD 4S JC 3H 2D 5D 9D KH"  # deadwood 4+10+3+2+5+9+10 = 43
    text, r = _shown(_dealt("modern", YOU, bot, "TC"), ["take", "knock KD"])
    assert r["outcome"] == "gin" and r["points"] == [68, 0] and r["layoffs"] == [[]] * 3
    lines = text.splitlines()
    assert lines[2] == "    You go gin: [AS 2S 3S] [4H 5H 6H] [7C 8C 9C TC]"
    assert lines[3].startswith("    Bot: [QS QH QD]  ") and lines[3].endswith(
        "(deadwood 43); nobody lays off against gin")
    assert lines[4] == "    Gin: You score the gin bonus 25 + Bot's deadwood 43 = 68 points."
    assert "lays off 4S" not in text and "->" not in text and "!" not in text


def test_a_knock_shows_the_layoffs_and_the_difference():
    bot = "QS QH QD 4S JC 3H 5D 9D KH 8D"  # 49; 4S and 3H lay off (JC needs TC): 42
    text, r = _shown(_dealt("modern", YOU, bot, "2D"), ["take", "knock KD"])
    assert r["outcome"] == "knock" and r["points"] == [40, 0]
    assert "    You knock: [AS 2S 3S] [4H 5H 6H] [7C 8C 9C]  2D (deadwood 2)" in text
    assert "lays off 4S on [AS 2S 3S], 3H on [4H 5H 6H]" in text
    assert "(deadwood 49 before layoffs, 42 after)" in text
    assert text.endswith("Knock: You score Bot's deadwood 42 - your 2 = 40 points.")
    # the bot knocking the same hands: you lay off, the bot scores
    text, r = _shown(_dealt("modern", bot, YOU, "2D", dealer=0), ["take", "knock KD"], 1)
    assert r["points"] == [0, 40] and "    Bot knocks: [AS 2S 3S]" in text
    assert "    You: [QS QH QD]  lay off 4S on [AS 2S 3S], 3H on [4H 5H 6H]" in text
    assert text.endswith("Knock: Bot scores your deadwood 42 - Bot's 2 = 40 points.")


def test_undercuts_and_ties():
    low = "QS QH QD JS JH JD 2C 3C 4C AD"  # deadwood 1 against your 9
    text, r = _shown(_dealt("modern", YOU, low, "9D"), ["take", "knock KD"])
    assert r["outcome"] == "undercut" and r["points"] == [0, 33]
    assert text.endswith("Undercut: Bot's deadwood 1 is below your 9: Bot scores the "
                         "undercut bonus 25 + 9 - 1 = 33 points.")
    assert "Undercut!" not in text and "nothing to lay off" in text
    tie = "QS QH QD JS JH JD 2C 3C 4C 9H"  # deadwood 9: a tie
    text, r = _shown(_dealt("modern", YOU, tie, "9D"), ["take", "knock KD"])
    assert r["outcome"] == "undercut" and r["points"] == [0, 25]
    assert "ties your 9, and a tie is an undercut under these rules: Bot scores the " \
           "undercut bonus 25 + 9 - 9 = 25 points." in text
    text, r = _shown(_dealt("modern:undercut_on_tie=false", YOU, tie, "9D"),
                     ["take", "knock KD"])
    assert r["outcome"] == "knock" and r["points"] == [0, 0]
    assert text.endswith("a tie is no undercut: You score Bot's deadwood 9 - your 9 = 0 "
                         "points.")


def test_big_gin_shows_no_layoffs():
    bot = "QS QH QD 4S 3H 2D 5D 9D KH 8D"  # 4S and 3H would lay off; deadwood 41
    text, r = _shown(_dealt("big_gin", "AS 2S 3S 4H 5H 6H 7C 8C 9C TC", bot, "JC"),
                     ["take", "big gin"])
    assert r["outcome"] == "big_gin" and r["points"] == [72, 0]  # 31 + 41
    assert "    You lay down big gin: [AS 2S 3S] [4H 5H 6H] [7C 8C 9C TC JC]" in text
    assert "(deadwood 41); nobody lays off against big gin" in text
    assert text.endswith("Big gin: You score the big gin bonus 31 + Bot's deadwood 41 = 72 "
                         "points.")


def test_a_dead_hand_scores_nothing():
    table = _dealt("modern", YOU, "QS QH QD 4S 3H 2D 5D 9D KH 8D", "2C")
    while table.to_move is not None:  # both pass, then draw and throw the card drawn
        if table.phase == "offer":
            table.apply("pass")
        elif table.phase == "draw":
            table.apply("stock")
        else:
            table.apply(f"discard {table.events[-1]['card']}")
    text, r = _shown(table, [])
    assert r["outcome"] == "dead" and r["points"] == [0, 0] and table.stock_left == 2
    assert text.endswith("Dead hand: the stock is down to 2 cards and nobody knocked, so "
                         "nobody scores; the same dealer deals again.")
    assert "You: " in text and "Bot: " in text and "lay" not in text


def test_oklahomas_doubled_hands():
    """A spade upcard sets the knock limit and doubles the hand (§8.1); Oklahoma counts
    boxes too: 1 for a knock, 3 for gin, doubled."""
    bot = "QS QH QD 4S JC 3H 5D 9D KH 8D"  # 42 after 4S and 3H lay off
    text, r = _shown(_dealt("oklahoma", YOU, bot, "9S"), ["take", "knock KD"])
    assert r["outcome"] == "knock" and r["points"] == [66, 0] and r["multiplier"] == 2
    assert text.endswith("Knock: You score Bot's deadwood 42 - your 9 = 33, x2 for the "
                         "upcard 9S (an upcard of spades doubles the hand) = 66 points. The "
                         "hand is worth 2 boxes.")
    bot = "QS QH QD 5S JC 3H 2D 5D 9D KH"  # deadwood 5+10+3+2+5+9+10 = 44
    text, r = _shown(_dealt("oklahoma", YOU, bot, "4S"), ["take", "knock KD"])
    assert r["outcome"] == "gin" and r["points"] == [138, 0]  # (25 + 44) x 2
    assert "You go gin: [AS 2S 3S 4S] [4H 5H 6H] [7C 8C 9C]" in text
    assert "nobody lays off against gin" in text
    assert text.endswith("Gin: You score the gin bonus 25 + Bot's deadwood 44 = 69, x2 for "
                         "the upcard 4S (an upcard of spades doubles the hand) = 138 "
                         "points. The hand is worth 6 boxes.")


def test_the_shown_split_is_the_showdowns_deadwood_in_every_layoff_mode():
    """Played hands: the defender's shown melds, layoffs and deadwood cards split its
    hand, each layoff extends its meld (a meld with its layoffs is a meld), nothing is
    laid off against gin, and the deadwood left is the kernel's D."""
    from ginsim.game.cards import cards_to_mask, parse_cards
    from ginsim.game.melds import meld_set
    from ginsim.table.agents import play_hand

    laid_some = 0
    for spec in ("modern", "modern:layoff=melds_first", "modern:layoff=layoffs_first",
                 "modern:layoff=two_orders", "classic:run_wrap=true"):
        rules = Table(spec).rules
        melds_ok = meld_set(rules.run_wrap)
        for hand in range(40):
            table = Table(rules, seed=9, hand=hand, dealer=hand % 2)
            play_hand(table, [Agent.from_spec("simple", rules),
                              Agent.from_spec("memory2", rules)])
            r = table.result()
            if r["outcome"] == "dead":
                continue
            d = 1 - r["knocker"]
            shown = [c for m in r["defender_melds"] + r["layoffs"] for c in m]
            rest = [c for c in r["hands"][d] if c not in shown]
            assert sorted(shown + rest) == sorted(r["hands"][d])
            assert all(cards_to_mask(parse_cards(m)) in melds_ok for m in r["defender_melds"])
            for meld, laid in zip(r["melds"], r["layoffs"], strict=True):
                assert not laid or cards_to_mask(parse_cards(meld + laid)) in melds_ok
            if r["outcome"] in ("gin", "big_gin"):
                assert not any(r["layoffs"])
            values = rules.rank_values()
            assert sum(int(values[c % 13]) for c in parse_cards(rest)) == \
                r["defender_deadwood"], (spec, hand, r)
            laid_some += any(r["layoffs"])
    assert laid_some >= 20  # the layoffs were exercised


class _DealtGame(TableGame):
    """A game whose first hand is the one given (the bot never moves in these tests)."""

    def __init__(self, table: Table) -> None:
        super().__init__("simple", "modern", 0, target=20)
        self.dealt = table

    def deal(self) -> Table:
        super().deal()
        self.table = self.dealt
        return self.table


def test_the_gin_command_goes_gin_and_is_offered_and_listed():
    from ginsim.cli.play_view import HELP, play_session

    assert "gin KD or gin (go gin" in HELP
    prompts: list[str] = []
    shown: list[str] = []

    def play(typed: list[str], upcard: str) -> int:
        moves = iter(typed)
        prompts.clear()
        shown.clear()
        return play_session(_DealtGame(_dealt("modern", YOU, "QS QH QD 4S JC 3H 2D 5D 9D KH",
                                              upcard)),
                            lambda prompt: prompts.append(prompt) or next(moves, None),
                            shown.append)

    # TC makes gin: the prompt offers it; "gin 9C" (deadwood left) and "gin ZZ" are
    # refused with their reasons; "gin" goes gin discarding KD, and the game is won
    assert play(["take", "gin 9C", "gin ZZ", "gin"], "TC") == 0
    assert "gin (discarding KD)" in prompts[1]
    refusals = [line for line in shown if "Not allowed" in line]
    assert "gin 9C: discarding 9C leaves deadwood; gin needs none (gin KD does it)" in \
        refusals[0]
    assert "gin 'ZZ'" in refusals[1] and len(refusals) == 2
    assert "  You go gin, discarding KD" in shown
    assert any("You go gin: [AS 2S 3S] [4H 5H 6H] [7C 8C 9C TC]" in line for line in shown)
    assert any("Game over: you win" in line for line in shown)
    # 8D leaves deadwood whatever the discard: no gin offered, "gin" refused, then Ctrl-D
    assert play(["take", "gin"], "8D") == 0
    assert "gin" not in prompts[1].replace("e.g.", "")
    assert any("gin: no discard leaves you without deadwood" in line for line in shown)
    assert shown[-1].startswith("Game ended: input closed after 0 finished hands")
    # before drawing, gin is refused as out of phase
    assert play(["gin"], "8D") == 0 and any("go gin after drawing" in line for line in shown)


def test_the_screen_fits_a_narrow_window(tmp_path):
    """At 40 columns every line of ``play`` (prompts and help included) fits."""
    run = subprocess.run([sys.executable, "-m", "ginsim", "play", "--bot", "simple", "--seed",
                          "3"], input="help\nhint\n", capture_output=True, text=True,
                         timeout=300, cwd=tmp_path,
                         env={**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "40"})
    assert run.returncode == 0, run.stderr
    # piped input is echoed after its prompt (a transcript): the typed word may overrun
    lines = [line.removesuffix(" help").removesuffix(" hint")
             for line in run.stdout.splitlines()]
    assert len(lines) > 20 and all(len(line) <= 40 for line in lines), lines
    assert any(line.endswith("): help") for line in run.stdout.splitlines())


def test_a_hand_the_bot_opens_shows_your_cards_before_the_bot_is_awaited():
    """While the bot's kernels compile (``before_bot`` waits for them) you read your
    hand; your moves wait in ``before_move`` (the moves' kernels), the bot's in
    ``before_bot``, each before it is applied."""
    from ginsim.cli.play_view import play_session
    from ginsim.table.game_table import first_dealer

    seed = next(s for s in range(50) if first_dealer(s) == 0)  # you deal: the bot opens
    shown: list[str] = []
    waits: list[tuple[str, int]] = []
    typed = iter(["pass", "s"])
    code = play_session(TableGame("simple", "modern", seed, target=20),
                        lambda prompt: next(typed, None), shown.append,
                        before_bot=lambda: waits.append(("bot", len(shown))),
                        before_move=lambda: waits.append(("move", len(shown))))
    assert code == 0 and waits[0][0] == "bot"
    assert shown[waits[0][1] - 1].startswith("  Your hand: ")  # the last line before it
    assert shown[waits[0][1]].startswith("  Bot ")  # the bot's move came after the wait
    assert "move" in [kind for kind, _ in waits[1:]]
