"""scripts/compile_profile.py: the kernel table built from numba's compile events, on a
worked example and on a real compile of two small kernels (one calling the other)."""

from __future__ import annotations

from types import SimpleNamespace

import numba
import pytest
from numba.core import event
from script_modules import load_script


@pytest.fixture(scope="module")
def profile():
    return load_script("compile_profile")


def _dispatcher(name: str) -> SimpleNamespace:
    def func() -> None:
        pass

    func.__qualname__ = name
    func.__module__ = "ginsim.toy"
    return SimpleNamespace(py_func=func)


def _event(dispatcher, args: tuple, start: bool) -> SimpleNamespace:
    return SimpleNamespace(is_start=start, data={"dispatcher": dispatcher, "args": args})


def test_a_worked_example_of_nested_compiles(profile) -> None:
    """outer compiles 0..10 s and, while it is typed, inner compiles twice (1..3 s and
    4..5 s, two signatures). outer's pipeline says 7 s typing, 2 s lowering; inner's
    each 1 s typing, 0.25 s lowering."""
    outer, inner = _dispatcher("outer"), _dispatcher("inner")
    events = [(0.0, _event(outer, ("a",), True)), (1.0, _event(inner, ("i",), True)),
              (3.0, _event(inner, ("i",), False)), (4.0, _event(inner, ("f",), True)),
              (5.0, _event(inner, ("f",), False)), (10.0, _event(outer, ("a",), False))]
    timings = {"outer": {"1_nopython_type_inference": (0.5, 6.0, 0.5),
                         "2_native_lowering": (0.0, 2.0, 0.0), "0_translate_bytecode": (0, 1, 0)},
               "inner": {"1_nopython_type_inference": (0.0, 1.0, 0.0),
                         "2_native_lowering": (0.0, 0.25, 0.0)}}

    def metadata(dispatcher, args):
        return {"pipeline_times": {"nopython": timings[dispatcher.py_func.__qualname__]}}

    rows = {r["kernel"]: r for r in profile.kernel_rows(events, metadata)}
    assert rows["toy.outer"] == {"kernel": "toy.outer", "signatures": 1, "inclusive_s": 10.0,
                                 "exclusive_s": 7.0, "typing_s": 4.0, "lowering_s": 2.0,
                                 "other_passes_s": 1.0}
    assert rows["toy.inner"] == {"kernel": "toy.inner", "signatures": 2, "inclusive_s": 3.0,
                                 "exclusive_s": 3.0, "typing_s": 2.0, "lowering_s": 0.5,
                                 "other_passes_s": 0.0}
    assert [r["kernel"] for r in profile.kernel_rows(events, metadata)] == ["toy.outer",
                                                                            "toy.inner"]
    lines = profile.table_lines([("toys", 10.0)], list(rows.values()), top=1)
    assert lines[1].split() == ["toys", "10.0"] and lines[2].split() == ["total", "10.0"]
    assert "3 signatures of 2 kernels, 10.0 s" in lines[3]
    assert lines[-1].split() == ["toy.outer", "1", "7.0", "10.0", "4.0", "2.0", "1.0"]


def test_a_real_compile_of_a_kernel_and_its_callee(profile) -> None:
    @numba.njit(cache=False)
    def callee(x):
        return x * 2 + 1

    @numba.njit(cache=False)
    def caller(x):
        return callee(x) - callee(x + 1)

    with event.install_recorder("numba:compile") as recorder:
        caller(3)
        caller(2.5)
    rows = {r["kernel"].rsplit(".", 1)[-1]: r for r in profile.kernel_rows(recorder.buffer)}
    assert rows["caller"]["signatures"] == 2 and rows["callee"]["signatures"] == 2
    outer, inner = rows["caller"], rows["callee"]
    assert inner["inclusive_s"] < outer["inclusive_s"]
    assert outer["exclusive_s"] == pytest.approx(outer["inclusive_s"] - inner["inclusive_s"])
    for row in (outer, inner):  # the passes are parts of the kernel's own compile
        assert row["typing_s"] > 0 and row["lowering_s"] > 0
        assert row["other_passes_s"] > 0
        own = row["typing_s"] + row["lowering_s"] + row["other_passes_s"]
        assert own <= row["exclusive_s"] + 1e-6


def test_bad_options_stop_before_compiling(profile, capsys) -> None:
    with pytest.raises(SystemExit) as info:
        profile.main(["--command", "nothing"])
    assert info.value.code == 2
    with pytest.raises(SystemExit) as info:
        profile.main(["--top", "0"])
    assert info.value.code == 2 and "--top must be at least 1" in capsys.readouterr().err
