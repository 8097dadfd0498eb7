"""The card-play data scripts (scripts/make_training_data.py, scripts/train_card_play.py)
check every argument, ``--out`` first, and the rows and manifests they read, before a hand
is played or a model fitted: each bad input is one line on stderr naming the problem,
exit code 2, no traceback, and nothing is written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ginsim.runner.training_rows import row_columns, row_file

ROOT = Path(__file__).resolve().parents[1]
MAKE = ROOT / "scripts" / "make_training_data.py"
TRAIN = ROOT / "scripts" / "train_card_play.py"
HANDS = 20


def script(path: Path, *args, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, str(path), *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def refused(done: subprocess.CompletedProcess, words: str) -> None:
    """Exit 2 with one line on stderr holding ``words``, no traceback, nothing on stdout."""
    err = done.stderr
    assert done.returncode == 2, (done.returncode, err)
    assert "Traceback" not in err and err.endswith("\n") and err.count("\n") == 1, err
    assert words in err, err
    assert done.stdout == ""


def rows_table(kind: str, hands: int) -> pa.Table:
    """Rows of ``kind`` as make_training_data writes them, made up: per hand two draws
    (one taken) and one discard decision of three options, every option valued."""
    features, whole, values = row_columns(kind)
    rng = np.random.default_rng(7)
    per = 2 if kind == "draw" else 3
    n = hands * per
    hand = np.repeat(np.arange(hands), per)
    place = np.tile(np.arange(per), hands)
    columns = {name: rng.normal(size=n) for name in features}
    if kind == "draw":
        ints = {"hand": hand, "seat": place, "take": (hand + place) % 2,
                "default_take": place % 2, "opponent": np.zeros(n, dtype=np.int64)}
    else:
        ints = {"decision": hand, "hand": hand, "card": place, "chosen": place == 0,
                "default": place == 1, "knock": np.zeros(n), "opponent": np.zeros(n)}
    columns.update({name: np.asarray(ints[name], dtype=np.int64) for name in whole})
    columns.update({name: rng.normal(size=n) for name in values})
    return pa.table(columns)


MANIFEST = {"teacher": "mc:rollouts=4", "opponents": ["simple"], "seed": 0,
            "region": "card play training", "chunk_size": HANDS, "command": "python x",
            "chunks": {"0": {"first_hand": 0, "hands": HANDS, "opponent": "simple",
                             "draws": 2 * HANDS, "discard_decisions": HANDS,
                             "discard_rows": 3 * HANDS, "seconds": 1.5,
                             "teacher_points_per_hand": 0.25}}}


@pytest.fixture()
def rows(tmp_path: Path) -> Path:
    """A folder of made-up rows and its manifest, that train_card_play takes."""
    folder = tmp_path / "rows"
    folder.mkdir()
    for kind in ("draw", "discard"):
        pq.write_table(rows_table(kind, HANDS), row_file(folder, kind, 0))
    (folder / "manifest.json").write_text(json.dumps(MANIFEST))
    return folder


def test_made_up_rows_train_a_model(rows: Path) -> None:
    """The rows the refusals below spoil one thing of are good rows: a model is fitted."""
    done = script(TRAIN, "--data", rows, "--out", "m.npz", cwd=rows.parent)
    assert done.returncode == 0, done.stderr
    provenance = json.loads((rows.parent / "m.json").read_text())
    assert provenance["data"][0]["hands"] == HANDS and provenance["c"] == 1.0
    assert provenance["discard"]["test_decisions"] == HANDS // 5


def spoil_parquet(kind: str, how: str):
    def spoil(rows: Path) -> None:
        path = row_file(rows, kind, 0)
        if how == "truncated":
            path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
        elif how == "empty file":
            path.write_bytes(b"")
        elif how == "no rows":
            pq.write_table(rows_table(kind, HANDS).slice(0, 0), path)
        elif how == "missing column":
            pq.write_table(rows_table(kind, HANDS).drop_columns(["hand"]), path)
        else:  # a feature that is not a number
            table = rows_table(kind, HANDS)
            feature = row_columns(kind)[0][1]
            pq.write_table(table.set_column(1, feature, pa.array(["x"] * len(table))), path)
    return spoil


def spoil_manifest(text: str):
    def spoil(rows: Path) -> None:
        (rows / "manifest.json").write_text(text)
    return spoil


def keep(rows: Path) -> None:
    pass


TRAIN_CASES = [
    (["--c", "0"], keep, "--c must be a number in above 0"),
    (["--c", "-1"], keep, "--c must be a number in above 0"),
    (["--c", "nan"], keep, "--c must be a number in above 0"),
    (["--candidates", "12"], keep, "--candidates must be a whole number in 0..11"),
    (["--out", "no/such/m.npz"], keep, "its directory no/such does not exist"),
    (["--out", "rows"], keep, "--out rows is a directory"),
    (["--out", "m.txt"], keep, "--out must name an .npz file"),
    (["--out", "rows", "--c", "0"], keep, "--out rows is a directory"),  # --out first
    ([], spoil_parquet("discard", "truncated"), "discard_00000.parquet is not a readable"),
    ([], spoil_parquet("draw", "truncated"), "draw_00000.parquet is not a readable"),
    ([], spoil_parquet("discard", "empty file"), "Parquet file size is 0 bytes"),
    ([], spoil_parquet("draw", "no rows"), "the draw files hold no rows"),
    ([], spoil_parquet("discard", "missing column"), "lacks the column(s) hand"),
    ([], spoil_parquet("draw", "missing column"), "lacks the column(s) hand"),
    ([], spoil_parquet("discard", "text feature"), "holds string, not numbers"),
    ([], spoil_manifest('{"teacher": "mc", "chunks": 3'), "manifest.json is not valid JSON"),
    ([], spoil_manifest("[1, 2]"), "manifest.json is not a training-rows manifest"),
    ([], spoil_manifest("[" * 50_000 + "]" * 50_000), "nests 50,000 levels deep"),
    ([], spoil_manifest(json.dumps({**MANIFEST, "chunks": {"0": {"hands": "12"}}})),
     "chunk '0' must be a chunk number with"),
]


@pytest.mark.parametrize("args, spoil, words", TRAIN_CASES)
def test_train_card_play_refuses_in_one_line_before_fitting(rows, args, spoil, words):
    spoil(rows)
    before = sorted(rows.parent.rglob("*"))
    argv = ["--data", "rows", "--out", "m.npz", *args]
    refused(script(TRAIN, *argv, cwd=rows.parent), words)
    assert sorted(rows.parent.rglob("*")) == before  # nothing written


def test_a_missing_data_folder_is_refused(tmp_path: Path) -> None:
    refused(script(TRAIN, "--data", "gone", "--out", "m.npz", cwd=tmp_path),
            "--data gone is not a folder")


def out_file(tmp: Path) -> None:
    (tmp / "out").write_text("mine")


def out_manifest(text: str):
    def make(tmp: Path) -> None:
        (tmp / "out").mkdir()
        (tmp / "out" / "manifest.json").write_text(text)
    return make


def out_foreign(tmp: Path) -> None:
    (tmp / "out").mkdir()
    (tmp / "out" / "notes.txt").write_text("mine")


def new_out(tmp: Path) -> None:
    pass


MAKE_CASES = [
    ([], out_file, "--out out is a file, not a directory"),
    ([], out_foreign, "out is not empty and holds no manifest.json"),
    ([], out_manifest('{"teacher": '), "manifest.json is not valid JSON"),  # JSONDecodeError
    ([], out_manifest("[]"), "it must be a JSON object"),  # AttributeError
    ([], out_manifest("[" * 100_000 + "]" * 100_000), "nests 100,000 levels deep"),  # Recursion
    ([], out_manifest(json.dumps({**MANIFEST, "seed": -1})), "seed must be a whole number"),
    (["--teacher", "bogus"], new_out, "--teacher: unknown strategy 'bogus'"),
    (["--teacher", "simple"], new_out, "--teacher must be an mc strategy"),
    (["--seed", "-1"], new_out, "argument --seed: a seed is 0..2**64-1, got '-1'"),
    (["--hands", "2000000000"], new_out,
     "--hands must be a whole number in 1..1,000,000,000, got 2000000000; the card play "
     "training region holds 1,000,000,000 hands"),
    (["--hands", "10"], new_out, "--chunk must be a whole number in 1..10, got 100"),
    (["--hands", "1000001", "--chunk", "1"], new_out, "at most 1,000,000 fit one folder"),
    (["--teacher", "bogus", "--hands", "0"], out_file, "--out out is a file"),  # --out first
    (["--seed", "3"], out_manifest(json.dumps({**MANIFEST, "chunk_size": 100})),
     "holds rows made with other settings (teacher 'mc:rollouts=4', not"),
]


@pytest.mark.parametrize("args, place, words", MAKE_CASES)
def test_make_training_data_refuses_in_one_line_before_playing(tmp_path, args, place, words):
    place(tmp_path)
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    refused(script(MAKE, "--out", "out", *args, cwd=tmp_path), words)
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before
    if place is new_out:
        assert not (tmp_path / "out").exists()
