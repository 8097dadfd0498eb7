"""A damaged store never loads as changed data.

Random byte flips in chunk files and manifests, hand-edited manifests, chunks that a
killed run left unrecorded, a full disk and read-only directories: every case either
loads exactly the stored numbers or fails with one line that names the file, and
nothing stored is changed by the failure.
"""

import errno
import json
import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import ginsim
from ginsim.analysis import results
from ginsim.analysis.results import Result
from ginsim.cli import main
from ginsim.runner import chunkfile, lock
from ginsim.runner.jobs import Job
from ginsim.runner.lock import StoreError
from ginsim.runner.runner import run

HANDS, CHUNK, SEED = 2_000, 500, 7
JOB = Job.make("simple", "simple:t=6", HANDS, SEED, "classic")
FLIPS_PER_MODE = 300  # random damage cases per record mode


@pytest.fixture(scope="module")
def reference():
    """The run's tables and records computed without any store."""
    return Result.from_run(run([JOB], records="full", n_jobs=1, chunk_hands=HANDS))


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """One finished store per record mode, never modified (copied by ``store``)."""
    root = tmp_path_factory.mktemp("pristine")
    for mode in ("full", "summary"):
        run([JOB], records=mode, n_jobs=1, chunk_hands=CHUNK, out=root / mode)
    return root


@pytest.fixture(params=["full", "summary"])
def store(request, pristine, tmp_path):
    out = tmp_path / request.param
    shutil.copytree(pristine / request.param, out)
    return out


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def same_data(loaded: Result, reference: Result) -> bool:
    for name, table in reference.tables.items():
        if not loaded.tables[name].equals(table):
            return False
    return loaded.records_mode == "summary" or loaded.hands.equals(reference.hands)


def one_line_store_error(call, *match: str) -> str:
    with pytest.raises(StoreError) as info:
        call()
    text = str(info.value)
    assert "\n" not in text, text
    for m in match:
        assert m in text, text
    return text


def edit_manifest(root: Path, change) -> None:
    path = root / "manifest.json"
    manifest = json.loads(path.read_text())
    change(manifest)
    path.write_text(json.dumps(manifest, indent=1))


def test_pristine_stores_load_the_reference(store, reference):
    assert same_data(ginsim.load(store), reference)


def test_random_byte_flips_never_load_changed_data(store, reference):
    """Flip 1-3 random bytes of one chunk file or of the manifest, load, put them back."""
    rng = np.random.default_rng(14)
    files = sorted((store / "chunks").glob("*.parquet")) + [store / "manifest.json"] * 2
    detected = harmless = 0
    for case in range(FLIPS_PER_MODE):
        target = files[rng.integers(len(files))]
        original = target.read_bytes()
        damaged = bytearray(original)
        for at in rng.choice(len(damaged), size=rng.integers(1, 4), replace=False):
            damaged[at] ^= int(rng.integers(1, 256))
        target.write_bytes(bytes(damaged))
        try:
            loaded = ginsim.load(store)
        except ValueError as exc:  # StoreError, or "unfinished"
            detected += 1
            assert "\n" not in str(exc) and str(store) in str(exc), exc
            if target.suffix == ".parquet":
                assert str(target) in str(exc)  # the damaged chunk, by path
                if case % 6 == 0:  # a resume refuses it too, and plays nothing
                    with pytest.raises(StoreError, match=target.name):
                        run([JOB], records=store.name, n_jobs=1, out=store)
                    assert target.read_bytes() == bytes(damaged)
        else:
            harmless += 1  # e.g. a timestamp in the manifest: the data must be identical
            assert same_data(loaded, reference), f"case {case}: {target.name} changed data"
        target.write_bytes(original)
    print(f"{store.name}: {FLIPS_PER_MODE} random flips, {detected} refused with the "
          f"file named, {harmless} loaded identical data, 0 changed")
    assert detected + harmless == FLIPS_PER_MODE and detected > FLIPS_PER_MODE // 2
    assert same_data(ginsim.load(store), reference)


def test_an_edited_seed_names_the_field(store, capsys):
    edit_manifest(store, lambda m: m["jobs"][0].update(seed=8))
    before = snapshot(store)
    want = "manifest says seed 8; chunk j000-c000000 was played with seed 7"
    one_line_store_error(lambda: ginsim.load(store), want, "j000-c000000.parquet")
    # Re-running the seed-7 command plays nothing and changes nothing.
    one_line_store_error(lambda: run([JOB], records=store.name, out=store), want)
    assert main(["report", "--from", str(store), "--out", str(store.parent / "r")]) == 2
    err = capsys.readouterr().err
    assert want in err and err.count("\n") == 1 and "Traceback" not in err
    assert snapshot(store) == before


@pytest.mark.parametrize("change,message", [
    (lambda m: m["jobs"][0].update(stop=2 * HANDS),
     "manifest says hand range end 4000; chunk j000-c000000 was played with hand range "
     "end 2000"),
    (lambda m: m["jobs"][0]["rules"].update(target=150),
     "manifest says rules.target 150; chunk j000-c000000 was played with rules.target 100"),
    (lambda m: m["jobs"][0].update(b="simple:t=7"), "manifest says strategy b simple:t=7"),
    (lambda m: m["record_columns"][0].__setitem__(1, "<f8"),
     "manifest says record column hand <f8; chunk j000-c000000 was played with record "
     "column hand <i8"),
    (lambda m: m.update(ginsim_version="9.9"), "manifest says ginsim version 9.9"),
    # a damaged key is quoted shortened, on one line (a fuzzer's manifest named a table
    # with ten thousand brackets and a newline, and the refusal quoted all of it)
    (lambda m: m["tables"].__setitem__("[" * 10_000 + "\nknock_pairs", ["pair_stock"]),
     f"manifest says tables.{'[' * 57}... pair_stock; chunk j000-c000000 was played with "
     f"tables.{'[' * 57}... None; restore"),
])
def test_edited_manifest_fields_are_named(store, change, message):
    edit_manifest(store, change)
    before = snapshot(store)
    one_line_store_error(lambda: ginsim.load(store), message)
    one_line_store_error(lambda: run([JOB], records=store.name, out=store), message)
    assert snapshot(store) == before


def test_records_mode_edit_is_named(store):
    other = "summary" if store.name == "full" else "full"
    edit_manifest(store, lambda m: m.update(records=other))
    one_line_store_error(lambda: ginsim.load(store),
                         f"manifest says records {other}; chunk j000-c000000 was played "
                         f"with records {store.name}")


def test_edits_without_chunks_to_contradict_them(store):
    for path in (store / "chunks").glob("*.parquet"):
        path.unlink()
    edit_manifest(store, lambda m: m["jobs"][0].update(seed=8))
    one_line_store_error(lambda: ginsim.load(store), "manifest.json was changed after it "
                         "was written")
    edit_manifest(store, lambda m: m.update(chunk_hands=0))
    one_line_store_error(lambda: ginsim.load(store), "manifest.json is damaged",
                         "chunk_hands must be at least 1")
    edit_manifest(store, lambda m: m.update(chunk_hands=CHUNK, chunks=[{"job": 0}]))
    one_line_store_error(lambda: ginsim.load(store), "its chunk entry 0 does not describe")


def test_an_edited_checksum_names_the_chunk(store):
    edit_manifest(store, lambda m: m["chunks"][2].update(sha256="0" * 64))
    one_line_store_error(lambda: ginsim.load(store), "j000-c000002.parquet is damaged",
                         "SHA-256")


def test_a_resume_refused_for_a_damaged_chunk_leaves_the_manifest_as_it_was(store):
    """The chunks stored are read back (and refused) before the writer saves anything:
    not even the manifest's time stamp moves, as its error says."""
    edit_manifest(store, lambda m: (m["chunks"][2].update(sha256="0" * 64),
                                    m.update(updated="2000-01-01T00:00:00+00:00")))
    before = snapshot(store)
    text = one_line_store_error(lambda: run([JOB], records=store.name, n_jobs=1, out=store),
                                "j000-c000002.parquet is damaged", "nothing was changed")
    assert snapshot(store) == before, text


def test_a_chunk_with_valid_page_checksums_but_a_changed_value_is_caught(store):
    """Rewritten by hand with correct page checksums and stamp: only the manifest's
    SHA-256 can tell, and it does."""
    path = store / "chunks" / "j000-c000001.parquet"
    table = pq.read_table(path)
    name = "hands" if store.name == "summary" else "points_b"
    column = table.column(name).to_numpy() + 1
    changed = table.set_column(table.column_names.index(name), name,
                               pa.array(column, type=table.schema.field(name).type))
    pq.write_table(changed.replace_schema_metadata(table.schema.metadata), path,
                   write_page_checksum=True)
    assert chunkfile.read_stamp(path)["chunk"] == 1  # the stamp is kept
    one_line_store_error(lambda: ginsim.load(store), str(path), "is damaged")


def test_unrecorded_chunk_is_left_out_then_played_again_said_so(store, reference):
    edit_manifest(store, lambda m: m["chunks"].pop(1))
    with pytest.raises(ValueError, match=r"3 of 4 chunks stored; 1 more are written but not "
                                         r"yet recorded"):
        ginsim.load(store)
    assert ginsim.load(store, partial=True).summary.hands.sum() == HANDS - CHUNK
    with pytest.warns(UserWarning, match="j000-c000001.parquet, were written but not "
                                         "recorded"):
        resumed = run([JOB], records=store.name, n_jobs=1, out=store)
    assert resumed.hands_played == CHUNK and resumed.chunks_resumed == 3
    assert same_data(ginsim.load(store), reference)


def fail_writes_after(monkeypatch, good: int, error: OSError) -> None:
    """Let ``good`` chunk writes through, then fail like a full disk or read-only dir:
    the temporary file is left half-written when the error comes."""
    real = chunkfile.pq.write_table
    count = {"n": 0}

    def write_table(table, where, **kwargs):
        count["n"] += 1
        if count["n"] > good:
            Path(where).write_bytes(b"PAR1 half")
            raise error
        return real(table, where, **kwargs)

    monkeypatch.setattr(chunkfile.pq, "write_table", write_table)


@pytest.mark.parametrize("error,words", [
    (OSError(errno.ENOSPC, "No space left on device"), "No space left on device"),
    (PermissionError(errno.EACCES, "Permission denied"), "Permission denied"),
])
def test_a_full_disk_or_read_only_chunks_dir_keeps_what_was_stored(tmp_path, monkeypatch,
                                                                  reference, error, words):
    out = tmp_path / "s"
    fail_writes_after(monkeypatch, 2, error)
    text = one_line_store_error(
        lambda: run([JOB], records="full", n_jobs=1, chunk_hands=CHUNK, out=out),
        "could not write", "j000-c000002.parquet", words, "run the same command again")
    assert "Traceback" not in text
    assert sorted(p.name for p in (out / "chunks").iterdir()) == [
        "j000-c000000.parquet", "j000-c000001.parquet"]  # no half-written file left
    assert not (out / ".lock").exists()
    part = ginsim.load(out, partial=True).hands
    pd.testing.assert_frame_equal(part, reference.hands.iloc[:2 * CHUNK])
    monkeypatch.undo()
    resumed = run([JOB], records="full", n_jobs=1, out=out)
    assert resumed.chunks_resumed == 2 and same_data(ginsim.load(out), reference)


def test_a_full_disk_while_saving_the_manifest_keeps_the_old_one(store, monkeypatch):
    for path in sorted((store / "chunks").glob("*.parquet"))[2:]:
        path.unlink()
    edit_manifest(store, lambda m: m.update(chunks=m["chunks"][:2]))
    before = (store / "manifest.json").read_bytes()
    real_replace = os.replace

    def replace(src, dst):
        if str(dst).endswith("manifest.json"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    one_line_store_error(lambda: run([JOB], records=store.name, n_jobs=1, out=store),
                         "manifest.json: No space left on device")
    monkeypatch.undo()
    assert (store / "manifest.json").read_bytes() == before
    assert not list(store.glob(".manifest.json.*")) and not (store / ".lock").exists()
    assert ginsim.load(store, partial=True).summary.hands.sum() >= 2 * CHUNK


def test_a_read_only_store_directory(store, monkeypatch, capsys, reference):
    real_open = os.open

    def open_(path, flags, *args):
        if str(path).endswith(".lock"):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, *args)

    monkeypatch.setattr(lock.os, "open", open_)
    before = snapshot(store)
    one_line_store_error(lambda: run([JOB], records=store.name, out=store),
                         "cannot create the lock", "Permission denied", "ginsim.load")
    code = main(["simulate", "--a", JOB.a.spec, "--b", JOB.b.spec, "--hands", str(HANDS), "--seed",
                 str(SEED), "--rules", "classic", "--records", store.name, "--out",
                 str(store), "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Permission denied" in err
    assert snapshot(store) == before
    assert same_data(ginsim.load(store), reference)  # reading needs no lock


def test_a_store_too_big_for_hands_in_memory_still_gives_its_tables(pristine, reference,
                                                                   monkeypatch):
    monkeypatch.setattr(results, "MAX_RECORDS_IN_MEMORY", 1_000)
    loaded = ginsim.load(pristine / "full")
    for name, table in reference.tables.items():
        assert loaded.tables[name].equals(table)
    with pytest.raises(ValueError, match="2,000 hands of per-hand records, more than the "
                                         "1,000 that .hands keeps in memory"):
        loaded.hands  # noqa: B018


def test_killed_while_writing_the_first_manifest_starts_over(tmp_path, reference):
    out = tmp_path / "s"
    (out / "chunks").mkdir(parents=True)
    (out / ".manifest.json.99999.tmp").write_text('{"format": "ginsim-st')
    run([JOB], records="summary", n_jobs=1, chunk_hands=CHUNK, out=out)
    assert sorted(p.name for p in out.iterdir()) == ["chunks", "manifest.json"]
    assert same_data(ginsim.load(out), reference)
