"""Card model files are data from strangers (issue 64, item 4): one loader checks an
``.npz`` file's sizes from its zip directory before unpacking anything, then each array's
header, dtype, shape and values. A damaged file loads as written or is refused in one
line naming it (a ValueError), and every command that takes ``card_model=FILE`` exits 2
with that line and no traceback."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import warnings
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginsim.game.inputs.files import NPZ_MAX_MEMBER_BYTES, NPZ_MAX_MEMBERS, NPZ_MAX_RATIO
from ginsim.strategies.learned.card_model import (
    MODEL_DIR,
    card_model_provenance,
    read_card_model,
    write_card_model,
)

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = MODEL_DIR / "card_play.npz"  # the quadratic model: all five arrays
ORIGINAL = read_card_model(str(SHIPPED))


def fuzz(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None,
                    suppress_health_check=list(HealthCheck))


def check_refusal(exc: BaseException, path: Path) -> None:
    """A refusal is a ValueError of one line that names the file."""
    assert isinstance(exc, ValueError), repr(exc)
    text = str(exc)
    assert "\n" not in text and len(text) < 600, text
    assert str(path) in text, text


def load_or_refusal(path: Path) -> tuple | None:
    """The weights ``path`` holds, or None after checking its refusal."""
    try:
        return read_card_model(str(path))
    except Exception as exc:  # noqa: BLE001 (checked: a one-line ValueError)
        check_refusal(exc, path)
        return None


def same_weights(found: tuple, expected: tuple) -> bool:
    return all((a is None and b is None) or (a is not None and b is not None
                                              and np.array_equal(a, b))
               for a, b in zip(found, expected, strict=True))


def shipped_arrays() -> dict[str, np.ndarray]:
    with np.load(SHIPPED) as data:
        return {name: data[name] for name in data.files}


def zip_bomb(path: Path, megabytes: int) -> Path:
    """An .npz whose discard member unpacks to ``megabytes`` MB of zeros (deflated to
    about a thousandth of that), with the other members of a real model."""
    arrays = shipped_arrays()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, array in arrays.items():
            if name != "discard":
                buffer = io.BytesIO()
                np.lib.format.write_array(buffer, array)
                archive.writestr(f"{name}.npy", buffer.getvalue())
        header = io.BytesIO()
        count = megabytes * (1 << 20) // 8
        np.lib.format.write_array_header_1_0(header, {"descr": "<f8", "fortran_order": False,
                                                     "shape": (count,)})
        with archive.open("discard.npy", "w", force_zip64=True) as member:
            member.write(header.getvalue())
            zeros = bytes(1 << 20)
            for _ in range(megabytes):
                member.write(zeros)
    return path


# -- the four failures the issue names, through the command line ---------------------------

def _cases(tmp_path: Path) -> dict[str, Path]:
    data = SHIPPED.read_bytes()
    (tmp_path / "cut.npz").write_bytes(data[:len(data) // 2])
    (tmp_path / "empty.npz").write_bytes(b"")
    np.save(tmp_path / "one.npy", np.zeros(18))
    os.replace(tmp_path / "one.npy", tmp_path / "renamed.npz")
    return {"a truncated npz": tmp_path / "cut.npz", "an empty file": tmp_path / "empty.npz",
            "a .npy renamed .npz": tmp_path / "renamed.npz",
            "a zip bomb": zip_bomb(tmp_path / "bomb.npz", 40)}


COMMANDS = {
    "simulate": ["simulate", "--hands", "10", "--a"],
    "games": ["games", "--games", "1", "--a"],
    "match": ["match", "--games", "1", "--a"],
    "knock-chart": ["knock-chart", "--hands", "10", "--strategy"],
    "agent": ["agent", "--strategy"],
    "play": ["play", "--bot"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_each_command_refuses_a_damaged_model_in_one_line(tmp_path, command) -> None:
    for case, path in _cases(tmp_path).items():
        run = subprocess.run([sys.executable, "-m", "ginsim", *COMMANDS[command],
                              f"learned:card_model={path}"], capture_output=True, text=True,
                             input="", cwd=ROOT, timeout=120,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert run.returncode == 2, (case, run.returncode, run.stderr)
        lines = run.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: card model "), (case, lines)
        assert str(path) in lines[0] and "Traceback" not in run.stderr, (case, lines)
        if command != "simulate":
            break  # each command reads the model through the same parse; one case each


def test_a_zip_bomb_is_refused_before_it_is_unpacked(tmp_path) -> None:
    """800 MB of zeros packed into under a megabyte: refused from the zip directory, and
    the process that reads it stays far below the unpacked size."""
    bomb = zip_bomb(tmp_path / "bomb.npz", 800)
    assert bomb.stat().st_size < 1_500_000
    # the peak of Python's and numpy's allocations while reading, not the process's RSS:
    # a cold kernel cache compiles at import, and numba's compiler alone peaks far higher
    code = ("import sys, tracemalloc\nfrom ginsim.strategies.learned.card_model import "
            "read_card_model\ntracemalloc.start()\ntry:\n    read_card_model(sys.argv[1])\n"
            "except ValueError as e:\n    print(e)\n"
            "print(tracemalloc.get_traced_memory()[1] // 1024)\n")
    run = subprocess.run([sys.executable, "-c", code, str(bomb)], capture_output=True,
                         text=True, cwd=ROOT, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    message, peak_kb = run.stdout.strip().splitlines()
    assert "unpacks to 838,860,928 bytes" in message, run.stdout + run.stderr
    assert str(bomb) in message
    assert int(peak_kb) < 50_000, peak_kb  # kB; unpacked, the zeros alone are 800 MB


# -- the loader's checks, one by one --------------------------------------------------------

def _savez(path: Path, arrays: dict) -> Path:
    np.savez(path, **arrays)
    return path


MUTATIONS = {
    "a pickled object array": lambda a: {**a, "discard": np.array([{}] * 18, dtype=object)},
    "a missing array": lambda a: {k: v for k, v in a.items() if k != "draw"},
    "an extra array": lambda a: {**a, "extra": np.zeros(3)},
    "integer weights": lambda a: {**a, "draw": np.arange(12)},
    "text weights": lambda a: {**a, "discard": a["discard_features"]},
    "complex weights": lambda a: {**a, "pairs": a["pairs"].astype(complex)},
    "a record dtype": lambda a: {**a, "draw": np.zeros(12, dtype=[("x", "f8")])},
    "a table of weights": lambda a: {**a, "discard": np.zeros((18, 2))},
    "a scalar": lambda a: {**a, "draw": np.float64(1.0)},
    "too few weights": lambda a: {**a, "discard": a["discard"][:-1]},
    "too many pair weights": lambda a: {**a, "pairs": np.zeros(400)},
    "a NaN weight": lambda a: {**a, "discard": np.where(np.arange(18) == 3, np.nan,
                                                        a["discard"])},
    "an infinite weight": lambda a: {**a, "draw": np.full(12, np.inf)},
    "other features": lambda a: {**a, "draw_features": a["draw_features"][::-1]},
    "numbers for names": lambda a: {**a, "draw_features": np.zeros(12)},
    "too many members": lambda a: {**a, **{f"x{i}": np.zeros(1)
                                           for i in range(NPZ_MAX_MEMBERS)}},
}


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_an_npz_of_the_wrong_arrays_is_refused(tmp_path, mutation) -> None:
    path = _savez(tmp_path / "model.npz", MUTATIONS[mutation](shipped_arrays()))
    with pytest.raises(ValueError) as info:
        read_card_model(str(path))
    check_refusal(info.value, path)


def test_float32_weights_and_a_compressed_file_load_as_written(tmp_path) -> None:
    arrays = shipped_arrays()
    path = tmp_path / "packed.npz"
    np.savez_compressed(path, **{**arrays, "draw": arrays["draw"].astype(np.float32)})
    discard, draw, pairs = read_card_model(str(path))
    assert np.array_equal(discard, ORIGINAL[0]) and np.array_equal(pairs, ORIGINAL[2])
    assert np.array_equal(draw, ORIGINAL[1].astype(np.float32).astype(np.float64))
    linear = write_card_model(tmp_path / "linear.npz", ORIGINAL[0], ORIGINAL[1], {"a": 1})
    assert same_weights(read_card_model(str(linear)), (ORIGINAL[0], ORIGINAL[1], None))
    assert card_model_provenance(str(linear)) == {"a": 1}


def test_a_member_over_the_size_or_ratio_bound_is_refused_unpacked(tmp_path) -> None:
    big = tmp_path / "big.npz"
    np.savez(big, **{**shipped_arrays(), "pairs": np.zeros(NPZ_MAX_MEMBER_BYTES // 8 + 1)})
    with pytest.raises(ValueError, match="unpacks to .* over the") as info:
        read_card_model(str(big))
    check_refusal(info.value, big)
    packed = tmp_path / "packed.npz"  # under the size bound, over the ratio
    np.savez_compressed(packed, **{**shipped_arrays(),
                                   "pairs": np.zeros(NPZ_MAX_RATIO * 2_000 // 8)})
    with pytest.raises(ValueError, match="times its packed size") as info:
        read_card_model(str(packed))
    check_refusal(info.value, packed)


def test_damaged_provenance_is_refused_in_one_line(tmp_path) -> None:
    path = write_card_model(tmp_path / "m.npz", ORIGINAL[0], ORIGINAL[1], {"seed": 1})
    for text in ("", "[1, 2]", "{", '{"a": NaN}', "[" * 100 + "]" * 100):
        path.with_suffix(".json").write_text(text)
        with pytest.raises(ValueError) as info:
            card_model_provenance(str(path))
        check_refusal(info.value, path.with_suffix(".json"))


# -- hypothesis: damaged files load as written or are refused in one line ------------------

@fuzz(150)
@given(data=st.data())
def test_a_damaged_npz_loads_as_written_or_is_refused(tmp_path_factory, data) -> None:
    original = SHIPPED.read_bytes()
    raw = bytearray(original)
    how = data.draw(st.sampled_from(["cut", "flip", "cut and flip", "insert"]))
    if "flip" in how:
        for _ in range(data.draw(st.integers(1, 4))):
            at = data.draw(st.integers(0, len(raw) - 1))
            raw[at] ^= data.draw(st.integers(1, 255))
    if how == "insert":
        at = data.draw(st.integers(0, len(raw)))
        raw[at:at] = data.draw(st.binary(min_size=1, max_size=40))
    if "cut" in how:
        raw = raw[:data.draw(st.integers(0, len(raw) - 1))]
    path = tmp_path_factory.mktemp("npz") / "model.npz"
    path.write_bytes(bytes(raw))
    found = load_or_refusal(path)
    assert found is None or same_weights(found, ORIGINAL)


@fuzz(80)
@given(data=st.data())
def test_an_npz_with_members_renamed_dropped_or_swapped_is_refused(tmp_path_factory,
                                                                      data) -> None:
    arrays = shipped_arrays()
    names = sorted(arrays)
    members = {f"{name}.npy": arrays[name] for name in names}
    edit = data.draw(st.sampled_from(["rename", "drop", "swap", "duplicate"]))
    name = data.draw(st.sampled_from(names)) + ".npy"
    if edit == "rename":
        members[data.draw(st.text(min_size=1, max_size=12).filter(
            lambda t: t.removesuffix(".npy") not in arrays and "\x00" not in t))] = \
            members.pop(name)
    elif edit == "drop":
        members.pop(name)
    elif edit == "swap":
        other = data.draw(st.sampled_from(sorted(set(members) - {name})))
        members[name], members[other] = members[other], members[name]
    path = tmp_path_factory.mktemp("npz") / "model.npz"
    with zipfile.ZipFile(path, "w") as archive:
        for member, array in members.items():
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, array)
            archive.writestr(member, buffer.getvalue())
            if edit == "duplicate" and member == name:
                with warnings.catch_warnings():  # zipfile warns of the name it repeats
                    warnings.simplefilter("ignore")
                    archive.writestr(member, buffer.getvalue())
    found = load_or_refusal(path)
    if edit in ("rename", "swap", "duplicate") or (edit == "drop" and name != "pairs.npy"):
        assert found is None
    else:  # dropping the pair weights leaves a linear model
        assert same_weights(found, (ORIGINAL[0], ORIGINAL[1], None))
