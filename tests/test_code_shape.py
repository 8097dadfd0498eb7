"""The package keeps its shape (scripts/code_shape.py, issue 58): modules of at most 400
lines, functions of at most 60 lines and complexity 15, public kernels of at most 8
positional arguments. The offenders known when the check joined the suite are listed;
each must still offend (fix one: drop it here), and no other may appear. Reads the
source only: fast, no numba."""

from __future__ import annotations

from script_modules import load_script

#: Offenders the check found when it joined the suite, by kind: "path" or "path name".
KNOWN = {
    "modules": {"ginsim/cli/play_commands.py"},
    "long functions": {"ginsim/cli/play_commands.py _cmd_play"},
    "complex": {"ginsim/analysis/game_modes.py game_mode_summary",
                "ginsim/game/scoring/game_equity_nb.py game_equity_nb",
                "ginsim/runner/training_rows.py manifest_problem",
                "ginsim/runner/training_rows.py read_row_file",
                "ginsim/table/seat_view.py check_event"},
    "kernel arguments": set(),
}


def code_shape():
    return load_script("code_shape")


def offender(line: str) -> str:
    """``path`` or ``path name`` of a line of the script's list (line numbers and sizes
    dropped, so an offender keeps its name as code moves): a module's line is
    ``path: N lines``, a function's ``path:LINE name: ...``."""
    path, _, rest = line.partition(":")
    return path if rest.startswith(" ") else f"{path} {rest.split()[1].rstrip(':')}"


def test_the_offender_names_drop_line_numbers_and_sizes():
    assert offender("ginsim/a.py: 427 lines") == "ginsim/a.py"
    assert offender("ginsim/a.py:71 _cmd_play: 70 lines") == "ginsim/a.py _cmd_play"
    assert offender("ginsim/a.py:38 summary: complexity 18") == "ginsim/a.py summary"
    assert offender("ginsim/a_nb.py:5 play_nb: 9") == "ginsim/a_nb.py play_nb"


def test_the_check_finds_a_long_module_and_function(tmp_path, monkeypatch):
    module = code_shape()
    body = "\n".join(f"    x{i} = {i}" for i in range(70))
    (tmp_path / "big.py").write_text(f"def long():\n{body}\n" + "\n" * 400)
    monkeypatch.setattr(module, "PACKAGE", tmp_path)
    found = module.shape()
    assert [offender(line) for line in found["modules"]] == [f"{tmp_path.name}/big.py"]
    assert [offender(line) for line in found["long functions"]] == [
        f"{tmp_path.name}/big.py long"]


def test_no_module_or_function_outgrows_the_limits():
    found = code_shape().shape()
    for kind, known in KNOWN.items():
        now = {offender(line) for line in found[kind]}
        assert now <= known, f"{kind} over the limit (split them): {sorted(now - known)}"
        assert known <= now, f"no longer {kind} (drop them from KNOWN): {sorted(known - now)}"
