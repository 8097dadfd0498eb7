"""Files are data from strangers: chart files (JSON, CSV), store manifests and lock files
are loaded as written or refused in one line naming the path (a ValueError), never with a
traceback of another type and never with a hang, whatever their bytes; FIFOs, devices,
huge and deeply nested files are refused before they are parsed."""

from __future__ import annotations

import copy
import csv
import io
import json
import os
import shutil
import socket
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ginsim.runner import chunkfile
from ginsim.runner.aggregate import add_sparse, layout
from ginsim.runner.jobs import Job
from ginsim.runner.lock import StoreError, StoreLockedError
from ginsim.runner.runner import run
from ginsim.runner.store import MANIFEST, Store
from ginsim.strategies.charts.knock_charts import SHAPE, KnockChart, load_chart, read_chart_file
from ginsim.strategies.presets import parse_strategy

JOB = Job.make("simple", "simple:t=6", 4_000, 3, "classic")
CHUNK = 1_000


def fuzz(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None,
                    suppress_health_check=list(HealthCheck))


def check_refusal(exc: BaseException, path: Path | str) -> None:
    """A refusal is a ValueError of one line that names the file."""
    assert isinstance(exc, ValueError), repr(exc)
    text = str(exc)
    assert "\n" not in text and len(text) < 600, text
    assert str(path) in text, text


def no_hang(call, fifo: Path | None = None, seconds: float = 20):
    """``call()``'s result or exception, failing the test if it blocks (a FIFO opened
    for reading waits for a writer: open one to free the thread)."""
    box: dict = {}

    def target() -> None:
        try:
            box["result"] = call()
        except BaseException as exc:  # noqa: BLE001 (handed to the test)
            box["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        if fifo is not None:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail(f"{call} hung")
    return box.get("result"), box.get("error")


# -- chart files ---------------------------------------------------------------------------
def _chart() -> KnockChart:
    rng = np.random.default_rng(4)
    p = np.round(rng.random(SHAPE), 4)
    p[rng.random(SHAPE) < 0.3] = 1.0
    return KnockChart(p, "fuzzed", {"seed": 4})


CHART = _chart()


def _json_with(mutate) -> str:
    doc = json.loads(CHART.to_json())
    mutate(doc)
    return json.dumps(doc)


@pytest.mark.parametrize("text, words", [
    (_json_with(lambda d: d.update(info=[1, 2])), "info must be a JSON object"),
    (_json_with(lambda d: d["p_knock"][0][0].__setitem__(0, True)), "p_knock[0][0][0] is True"),
    (_json_with(lambda d: d["p_knock"][1][2].__setitem__(2, "0.5")), "p_knock[1][2][2] is '0.5'"),
    ("[" * 100_000 + "]" * 100_000, "nests 100,000 levels deep"),
    ('{"p_knock": 1, "p_knock": 2}', "repeats the key"),
    (_json_with(lambda d: d.update(opp_taken=["0", "1", "2", "3+"])), "opp_taken"),
], ids=["info_list", "cell_true", "cell_text", "nested", "repeated_key", "labels"])
def test_bad_chart_json_is_refused_in_one_line(tmp_path, text, words):
    path = tmp_path / "chart.json"
    path.write_text(text)
    with pytest.raises(ValueError) as err:
        parse_strategy(f"memory2:chart={path}")
    check_refusal(err.value, path)
    assert words in str(err.value)


def _csv_lines() -> list[str]:
    return CHART.to_csv().splitlines()


@pytest.mark.parametrize("edit, words", [
    (lambda ls: ls + [ls[7]], "gives the cell of line 8 again"),
    (lambda ls: [ls[0], ls[1].replace("28,31,", "28,999,"), *ls[2:]], "line 2: bad cell"),
    (lambda ls: [ls[0], ls[1].replace(",1,0,", ",true,0,"), *ls[2:]], "line 2: bad cell"),
    (lambda ls: [ls[0], *ls[1:-1], ls[-1] + ",7"], "bad cell"),
    (lambda ls: [ls[0] + ",p_knock", *ls[1:]], "each once"),
    (lambda ls: [ls[0], *ls[2:]], "1 of 240 cells missing"),
], ids=["duplicate_row", "stock_high_999", "bool_deadwood", "extra_field", "column_twice",
        "missing_row"])
def test_bad_chart_csv_is_refused_in_one_line(tmp_path, edit, words):
    path = tmp_path / "chart.csv"
    path.write_text("\n".join(edit(_csv_lines())) + "\n")
    with pytest.raises(ValueError) as err:
        load_chart(str(path))
    check_refusal(err.value, path)
    assert words in str(err.value)


def test_chart_that_is_no_regular_file_is_refused_unread(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    _, err = no_hang(lambda: load_chart(str(fifo)), fifo)
    check_refusal(err, fifo)
    assert "FIFO" in str(err)
    zero = tmp_path / "zero.json"
    zero.symlink_to("/dev/zero")
    _, err = no_hang(lambda: read_chart_file(zero))
    check_refusal(err, zero)
    assert "character device" in str(err)
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(2**32)  # sparse: 4 GB that take no room
    _, err = no_hang(lambda: read_chart_file(big))
    check_refusal(err, big)
    assert "over the 1,000,000" in str(err)


json_junk = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(10**30), 10**30),
              st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=6),
              st.sampled_from([0, 1, 0.5, -0.0, 1e-300, "0.5", "1", []])),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=4), inner, max_size=3)),
    max_leaves=8)


def _paths(node, at=()):
    """Every place in a parsed JSON document, as key/index paths."""
    yield at
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*at, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*at, i))


def mutate_json(data, doc):
    """A random structural edit of ``doc`` (replace, delete, duplicate or add a value)."""
    doc = copy.deepcopy(doc)
    paths = list(_paths(doc))
    where = data.draw(st.sampled_from(paths[1:]))
    parent = doc
    for key in where[:-1]:
        parent = parent[key]
    key = where[-1]
    op = data.draw(st.sampled_from(["replace", "delete", "duplicate", "add"]))
    event(f"json {op}")
    if op == "replace":
        parent[key] = data.draw(json_junk)
    elif op == "delete":
        del parent[key]
    elif op == "duplicate" and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(parent[key]))
    elif isinstance(parent, dict):
        parent[data.draw(st.text(max_size=8))] = data.draw(json_junk)
    return doc


def mutate_text(data, text: bytes) -> bytes:
    """A random byte-level edit: flip, cut, or splice brackets or a repeated key."""
    op = data.draw(st.sampled_from(["flip", "cut", "brackets", "repeat_key"]))
    event(f"text {op}")
    at = data.draw(st.integers(0, max(len(text) - 1, 0)))
    if op == "flip":
        return text[:at] + bytes([text[at] ^ data.draw(st.integers(1, 255))]) + text[at + 1:]
    if op == "cut":
        return text[:at]
    if op == "brackets":
        n = data.draw(st.sampled_from([40, 5_000, 200_000]))
        return text[:at] + b"[" * n + text[at:]
    brace = text.find(b"{")
    return text[:brace + 1] + b'"name": "x", ' + text[brace + 1:]


def _check_chart_outcome(call, path: Path):
    result, err = no_hang(call)
    if err is not None:
        check_refusal(err, path)
        event("refused")
        return None
    event("loaded")
    return result


@fuzz(120)
@given(st.data())
def test_mutated_chart_json_loads_as_written_or_is_refused(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("c") / "chart.json"
    text = CHART.to_json().encode()
    if data.draw(st.booleans()):
        text = json.dumps(mutate_json(data, json.loads(text))).encode()
    else:
        text = mutate_text(data, text)
    path.write_bytes(text)
    chart = _check_chart_outcome(lambda: read_chart_file(path), path)
    if chart is not None:  # loaded: the cells are exactly the file's numbers
        cells = json.loads(text)["p_knock"]
        assert np.array_equal(chart.p, np.array(cells, dtype=float))
        assert not any(isinstance(c, (bool, str)) for c in np.ravel(np.array(cells, object)))


def _reference_csv(text: str) -> dict:
    rows = list(csv.DictReader(io.StringIO(text)))
    return {(int(r["stock_low"]), int(r["deadwood"]), int(r["opp_taken"])): float(r["p_knock"])
            for r in rows}


def mutate_csv(data, lines: list[str]) -> list[str]:
    lines = list(lines)
    op = data.draw(st.sampled_from(["duplicate", "delete", "swap", "field", "junk_line",
                                    "columns"]))
    event(f"csv {op}")
    i = data.draw(st.integers(1, len(lines) - 1))
    j = data.draw(st.integers(1, len(lines) - 1))
    if op == "duplicate":
        lines.insert(j, lines[i])
    elif op == "delete":
        del lines[i]
    elif op == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    elif op == "field":
        fields = lines[i].split(",")
        k = data.draw(st.integers(0, len(fields) - 1))
        fields[k] = data.draw(st.one_of(
            st.text(alphabet="0123456789.-+e ,\"x", max_size=6),
            st.sampled_from(["999", "-1", "nan", "inf", "1e400", "3", "0", "1.5", "true"])))
        lines[i] = ",".join(fields)
    elif op == "junk_line":
        lines.insert(j, data.draw(st.text(max_size=30)).replace("\r", "").replace("\n", ""))
    else:
        lines[0] = ",".join(data.draw(st.permutations(lines[0].split(","))))
    return lines


@fuzz(120)
@given(st.data())
def test_mutated_chart_csv_loads_as_written_or_is_refused(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("c") / "chart.csv"
    lines = _csv_lines()
    if data.draw(st.booleans()):
        text = ("\n".join(mutate_csv(data, lines)) + "\n").encode()
    else:
        text = mutate_text(data, ("\n".join(lines) + "\n").encode())
    path.write_bytes(text)
    chart = _check_chart_outcome(lambda: read_chart_file(path), path)
    if chart is not None:  # loaded: every cell is the one its (single) row gives
        ref = _reference_csv(text.decode("utf-8-sig"))
        assert len(ref) == chart.p.size
        for (low, d, t), v in ref.items():
            assert chart.p[(28 - low) // 4, d - 1, t] == v


# -- manifests and locks ------------------------------------------------------------------
@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """A finished summary store and its tables per chunk (read back once)."""
    out = tmp_path_factory.mktemp("store") / "s"
    run([JOB], records="summary", n_jobs=1, chunk_hands=CHUNK, out=out)
    store = Store.open_reader(out)
    tables = {c: store.read_sparse(c) for c in store.done}
    return out, (out / MANIFEST).read_bytes(), tables


def snapshot(root: Path) -> dict[str, object]:
    """Every regular file's bytes (size and time stamp only for a huge one)."""
    return {str(p.relative_to(root)): p.read_bytes() if p.stat().st_size < 2**24 else (
        p.stat().st_size, p.stat().st_mtime_ns)
        for p in sorted(root.rglob("*")) if p.is_file()}


def _open_and_read(root: Path, originals: dict) -> int:
    store = Store.open_reader(root)
    for chunk in store.done:
        got = store.read_sparse(chunk)
        want = originals[chunk]
        assert np.array_equal(got.index, want.index) and np.array_equal(got.acc, want.acc)
    return len(store.done)


@fuzz(100)
@given(st.data())
def test_mutated_manifest_is_read_as_written_or_refused(stored, data):
    root, original, tables = stored
    if data.draw(st.booleans()):
        text = json.dumps(mutate_json(data, json.loads(original)), indent=1).encode()
    else:
        text = mutate_text(data, original)
    before = {k: v for k, v in snapshot(root).items() if k != MANIFEST}
    (root / MANIFEST).write_bytes(text)
    try:
        result, err = no_hang(lambda: _open_and_read(root, tables))
    finally:
        (root / MANIFEST).write_bytes(original)
    if err is not None:
        assert isinstance(err, StoreError), repr(err)
        check_refusal(err, root)
        event("refused")
    else:
        event(f"read {result} chunks")
    assert {k: v for k, v in snapshot(root).items() if k != MANIFEST} == before


def _copy(stored, tmp_path: Path) -> Path:
    root = tmp_path / "s"
    shutil.copytree(stored[0], root)
    return root


@pytest.mark.parametrize("kind", ["fifo", "dev_zero", "huge", "nested", "bool_size"])
def test_manifest_of_another_kind_is_refused_before_parsing(stored, tmp_path, kind):
    root = _copy(stored, tmp_path)
    path = root / MANIFEST
    manifest = json.loads(path.read_bytes())
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev_zero":
        path.symlink_to("/dev/zero")
    elif kind == "huge":
        with open(path, "wb") as f:
            f.truncate(2**32)
    elif kind == "nested":
        path.write_text('{"format": "ginsim-store", "x": ' + "[" * 100_000 + "]" * 100_000
                        + "}")
    else:
        manifest["chunk_hands"] = True
        path.write_text(json.dumps(manifest))
    before = snapshot(root)
    for call in (lambda: Store.open_reader(root),
                 lambda: run([JOB], records="summary", n_jobs=1, out=root)):
        _, err = no_hang(call, path if kind == "fifo" else None)
        assert isinstance(err, StoreError), repr(err)
        check_refusal(err, path)
    assert snapshot(root) == before and not (root / ".lock").exists()


@pytest.mark.parametrize("lock", ["fifo", "bool_pid", "huge_pid", "negative_pid", "list"])
def test_a_lock_that_is_not_a_lock_file_is_refused(stored, tmp_path, lock):
    root = _copy(stored, tmp_path)
    path = root / ".lock"
    owner = {"host": socket.gethostname(), "pid": os.getpid(), "since": 0.0}
    if lock == "fifo":
        os.mkfifo(path)
    else:
        owner["pid"] = {"bool_pid": True, "huge_pid": 2**70, "negative_pid": -1,
                        "list": [1]}[lock]
        path.write_text(json.dumps(owner))
    before = snapshot(root)
    _, err = no_hang(lambda: run([JOB], records="summary", n_jobs=1, out=root),
                     path if lock == "fifo" else None)
    assert isinstance(err, StoreLockedError), repr(err)
    check_refusal(err, path)
    assert "is not a ginsim lock file" in str(err)
    assert snapshot(root) == before


def test_a_chunk_file_is_read_only_up_to_its_recorded_size(stored, tmp_path):
    """The manifest's ``bytes`` bound the read (a chunk grown to 4 GB is not read whole);
    a FIFO in place of a chunk is refused, not waited on."""
    root = _copy(stored, tmp_path)
    chunk = sorted((root / "chunks").iterdir())[0]
    size = chunk.stat().st_size
    with pytest.raises(StoreError, match=f"over the {size - 1:,} ") as err:
        chunkfile.read_verified(chunk, "0" * 64, {}, None, size - 1)
    check_refusal(err.value, chunk)
    chunk.unlink()
    os.mkfifo(chunk)
    _, err = no_hang(lambda: chunkfile.read_verified(chunk, "0" * 64, {}, None, size), chunk)
    assert isinstance(err, StoreError) and "FIFO" in str(err)
    check_refusal(err, chunk)


def test_a_chunk_stamp_nested_100000_deep_is_no_stamp(stored, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    root = _copy(stored, tmp_path)
    chunk = sorted((root / "chunks").iterdir())[0]
    deep = b"[" * 100_000 + b"]" * 100_000
    pq.write_table(pa.table({"x": [1]}).replace_schema_metadata({chunkfile.META_KEY: deep}),
                   chunk)
    with pytest.raises(StoreError, match="it has no ginsim chunk stamp") as err:
        Store.open_reader(root)
    check_refusal(err.value, chunk)


def test_a_report_directory_whose_report_is_a_fifo_is_refused_unread(tmp_path):
    from ginsim.reports._files import check_report_dir

    out = tmp_path / "report"
    out.mkdir()
    os.mkfifo(out / "report.html")
    _, err = no_hang(lambda: check_report_dir(out), out / "report.html")
    check_refusal(err, out)


@pytest.mark.filterwarnings("ignore::ginsim.runner.store.StoreNotice")  # replays are expected
@fuzz(30)
@given(st.data())
def test_a_resume_from_a_mutated_manifest_finishes_the_run_or_changes_nothing(
        stored, tmp_path_factory, data):
    """The writer's side: resuming over a mutated manifest either gives the tables of the
    whole run or is refused in one line, with every file (the manifest too) as it was."""
    root = tmp_path_factory.mktemp("w") / "s"
    shutil.copytree(stored[0], root)
    original = stored[1]
    how = data.draw(st.sampled_from(["json", "text", "forget_chunks"]))
    if how == "json":
        text = json.dumps(mutate_json(data, json.loads(original)), indent=1).encode()
    elif how == "text":
        text = mutate_text(data, original)
    else:  # chunks whose entries are gone are played again (a kill before the save)
        doc = json.loads(original)
        doc["chunks"] = data.draw(st.lists(st.sampled_from(doc["chunks"]), unique_by=lambda c:
                                           c["index"], max_size=len(doc["chunks"])))
        text = json.dumps(doc, indent=1).encode()
    (root / MANIFEST).write_bytes(text)
    before = snapshot(root)
    result, err = no_hang(lambda: run([JOB], records="summary", n_jobs=1, out=root))
    assert not (root / ".lock").exists()
    if err is not None:
        assert isinstance(err, StoreError), repr(err)
        check_refusal(err, root)
        assert snapshot(root) == before
        event("refused")
        return
    event(f"resumed {result.chunks_resumed} chunks")
    whole = layout(JOB.rules).empty()
    for tables in stored[2].values():
        add_sparse(whole, tables)
    np.testing.assert_array_equal(result.tables[0], whole)


def _owners() -> st.SearchStrategy:
    """Lock contents: a valid owner (a dead or a live pid, this host), one with a field
    spoiled, any JSON value."""
    valid = st.fixed_dictionaries({"host": st.just(socket.gethostname()),
                                   "pid": st.one_of(st.integers(1, 2**22),
                                                    st.just(os.getpid()), st.just(1)),
                                   "since": st.floats(0, 2e9)})
    spoiled = valid.flatmap(lambda d: st.sampled_from(sorted(d)).flatmap(
        lambda k: st.one_of(json_junk, st.integers(-5, 2**70)).map(lambda v: {**d, k: v})))
    return st.one_of(valid, spoiled, json_junk)


@fuzz(60)
@given(owner=_owners(), raw=st.one_of(st.none(), st.none(), st.none(), st.binary(max_size=64)))
def test_a_lock_file_of_any_content_is_taken_over_or_refused(tmp_path_factory, owner, raw):
    """A lock that names a dead process on this host is taken over; a live one, another
    host's or anything that is not a lock file is refused in one line; never a hang."""
    from ginsim.runner.lock import StoreLock

    path = tmp_path_factory.mktemp("l") / ".lock"
    path.write_bytes(raw if raw is not None else json.dumps(owner).encode())
    lock = StoreLock(path)
    _, err = no_hang(lock.acquire)
    if err is None:
        event("taken over")
        assert lock.held and json.loads(path.read_text())["pid"] == os.getpid()
        lock.release()
        assert not path.exists()
    else:
        assert isinstance(err, StoreLockedError), repr(err)
        check_refusal(err, path)
        event("refused")


def test_the_chart_files_a_spec_reads_are_found_nested_or_not(tmp_path):
    """What a run records under ``inputs``: the user's chart files, also inside an mc
    player's rollout or model spec; not built-in, shipped or bit charts."""
    from ginsim.strategies.charts.knock_charts import spec_chart_files

    a, b = tmp_path / "a.json", tmp_path / "b.csv"
    assert spec_chart_files(f"memory2:chart={a}") == [str(a)]
    assert spec_chart_files(f"mc:rollout=memory2:chart={a};outs=1,model=simple:chart={b}"
                            ) == [str(a), str(b)]
    assert spec_chart_files("memory2:chart=equilibrium,knock=5") == []
    assert spec_chart_files("memory2:chart=always") == []
    assert spec_chart_files("chart:chart=1921/1/1/1") == []
