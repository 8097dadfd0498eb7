"""Training rows for the learned card play, from the search player ``mc`` (the teacher).

mc plays hands against a mix of opponents on deals of the "card play training" region
(``--region test``: the held-back "card play test" region), and each of its draws and
discards is written down: the features of every option (the learned card play's own
kernel), the teacher's rollout means of the options it searched, its rollout strategy's
choice and its own. Chunked and resumable: chunk k (hands k*size .. of the region,
against opponent k mod the mix) goes to ``draw_<k>.parquet`` and ``discard_<k>.parquet``
in ``--out``, listed in ``manifest.json``; a run again makes only the chunks missing. Each
hand is a function of (seed, hand index) alone. Every argument, ``--out`` first (a new or
empty folder, or one of rows whose manifest is read as the result stores read theirs), is
checked before a hand is played; bad input is one line on stderr, exit code 2.
Run: nice -n 19 python scripts/make_training_data.py --hands 2000 --out card_play_data
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ginsim.cli.options import Parser, UsageError, refused, seed
from ginsim.game.deal_ranges import REGION_SPAN, deal_block
from ginsim.game.inputs.checks import check_int
from ginsim.game.inputs.files import write_text_atomic
from ginsim.game.inputs.specs import brief
from ginsim.runner.store_files import MANIFEST
from ginsim.runner.training_rows import (
    MAX_ROW_CHUNKS,
    check_rows_place,
    read_rows_manifest,
    row_file,
)
from ginsim.simulator.search.lessons_nb import DISCARD_META, DRAW_META
from ginsim.simulator.search.teacher import MAX_TEACHER_HANDS, teacher_lessons
from ginsim.strategies.learned.card_features_nb import DISCARD_FEATURES, DRAW_FEATURES
from ginsim.strategies.presets import parse_strategy

#: the teacher: the mc preset as it was when it taught the shipped model, its rollouts
#: playing expert's card play (the preset's rollouts now play the model learned from it);
#: about 30 hands a second on one core; a smaller search such as
#: mc:rollouts=16,particles=32 plays about 80, with noisier means
TEACHER = ("mc:rollout=expert,response2=expert:chart=expert_vs_simple,"
           "response3=expert:chart=expert_vs_memory2,response4=expert:chart=expert_vs_gin_waiter")
OPPONENTS = ("simple", "memory2", "expert", "memory2:knock=0")
REGIONS = {"training": "card play training", "test": "card play test"}
DECISION_STRIDE = 10**7  # a chunk's decision k is numbered chunk * stride + k


def chunk_tables(k: int, lessons, opponent: int) -> tuple[pa.Table, pa.Table]:
    """Chunk ``k``'s draw and discard rows as Arrow tables."""
    draw = {name: lessons.draw_x[:, i] for i, name in enumerate(DRAW_FEATURES)}
    draw.update({name: lessons.draw_meta[:, i] for i, name in enumerate(DRAW_META)})
    draw.update(value_take=lessons.draw_v[:, 0], value_stock=lessons.draw_v[:, 1])
    draw["opponent"] = np.full(len(lessons.draw_x), opponent, dtype=np.int64)
    disc = {name: lessons.disc_x[:, i] for i, name in enumerate(DISCARD_FEATURES)}
    disc.update({name: lessons.disc_meta[:, i] for i, name in enumerate(DISCARD_META)})
    disc["decision"] = disc["decision"] + k * DECISION_STRIDE
    disc.update(value=lessons.disc_v[:, 0], value_knock=lessons.disc_v[:, 1])
    disc["opponent"] = np.full(len(lessons.disc_x), opponent, dtype=np.int64)
    return pa.table(draw), pa.table(disc)


def settings(args: argparse.Namespace) -> dict:
    """What fixes the rows: a manifest made with other settings is not resumed."""
    return {"teacher": args.teacher, "opponents": list(OPPONENTS), "seed": args.seed,
            "region": REGIONS[args.region], "chunk_size": args.chunk}


def check_arguments(args: argparse.Namespace) -> dict:
    """Check every argument, ``--out`` first (its manifest read as the stores read
    theirs), before a hand is played; the manifest to resume, or a new one. One-line
    ValueError naming what was wrong."""
    out = check_rows_place(args.out)
    manifest = read_rows_manifest(out) if out.is_dir() else None
    args.out = out
    args.hands = check_int(args.hands, "--hands", 1, REGION_SPAN,
                           hint=f"the {REGIONS[args.region]} region holds "
                                f"{REGION_SPAN:,} hands")
    args.chunk = check_int(args.chunk, "--chunk", 1, min(args.hands, MAX_TEACHER_HANDS),
                           hint=f"--chunk is at most --hands and at most the teacher's "
                                f"{MAX_TEACHER_HANDS:,} hands a call")
    if args.hands // args.chunk > MAX_ROW_CHUNKS:
        raise ValueError(f"--hands {args.hands:,} in chunks of {args.chunk:,} make "
                         f"{args.hands // args.chunk:,} chunks, at most {MAX_ROW_CHUNKS:,} "
                         f"fit one folder: give a larger --chunk")
    try:
        teacher = parse_strategy(args.teacher)
    except ValueError as exc:
        raise ValueError(f"--teacher: {exc}") from None
    if not teacher.is_mc:
        raise ValueError(f"--teacher must be an mc strategy (e.g. mc:rollouts=16), "
                         f"got {brief(args.teacher, 40)}")
    wanted = settings(args)
    if manifest is None:
        return {**wanted, "chunks": {}}
    made = {key: manifest[key] for key in wanted}
    if made != wanted:
        differ = "; ".join(f"{key} {brief(made[key], 60)}, not {brief(wanted[key], 60)}"
                           for key in wanted if made[key] != wanted[key])
        raise ValueError(f"{out} holds rows made with other settings ({differ}): give "
                         f"another --out or the same settings")
    return manifest


def save_manifest(path: Path, manifest: dict) -> None:
    write_text_atomic(path, json.dumps(manifest, indent=1) + "\n")


def write_table(table: pa.Table, path: Path) -> None:
    """Write rows under a temporary name, then rename: a killed run leaves no part file
    that train_card_play would read."""
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        pq.write_table(table, temp)
        os.replace(temp, path)
    finally:
        temp.unlink(missing_ok=True)


def make_chunk(k: int, args: argparse.Namespace, out: Path) -> dict:
    """Play chunk ``k`` and write its files; its manifest entry."""
    first = deal_block(REGIONS[args.region], k, args.chunk)
    opponent = k % len(OPPONENTS)
    began = time.perf_counter()
    lessons, records = teacher_lessons(args.teacher, OPPONENTS[opponent], start=first,
                                       stop=first + args.chunk, seed=args.seed)
    seconds = time.perf_counter() - began
    draw, disc = chunk_tables(k, lessons, opponent)
    write_table(draw, row_file(out, "draw", k))
    write_table(disc, row_file(out, "discard", k))
    net = (records["points_a"].astype(float) - records["points_b"]).mean()
    return {"first_hand": first, "hands": args.chunk, "opponent": OPPONENTS[opponent],
            "draws": int(lessons.count[0]), "discard_decisions": int(lessons.count[1]),
            "discard_rows": int(lessons.count[2]), "seconds": round(seconds, 2),
            "teacher_points_per_hand": round(float(net), 3)}


def parser() -> Parser:
    parser = Parser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands in all (whole chunks)")
    parser.add_argument("--chunk", type=int, default=100, help="hands per chunk")
    parser.add_argument("--out", required=True, help="folder of the rows")
    parser.add_argument("--seed", type=seed, default=0, help="0..2**64-1")
    parser.add_argument("--teacher", default=TEACHER, help="the mc spec that teaches")
    parser.add_argument("--region", choices=tuple(REGIONS), default="training")
    return parser


def main(argv: list[str] | None = None) -> int:
    path = None
    try:
        args = parser().parse_args(argv)
        manifest = check_arguments(args)
        path = args.out / MANIFEST
        args.out.mkdir(parents=True, exist_ok=True)
        manifest["command"] = " ".join(["python", *sys.argv])
        save_manifest(path, manifest)  # before the first chunk: the folder is known as ours
    except (UsageError, ValueError) as exc:
        return refused("make_training_data", exc)
    except OSError as exc:
        return refused("make_training_data", ValueError(
            f"cannot write {exc.filename or path}: {exc.strerror or exc}"))
    for k in range(args.hands // args.chunk):
        if str(k) in manifest["chunks"]:
            continue
        manifest["chunks"][str(k)] = make_chunk(k, args, args.out)
        save_manifest(path, manifest)
        entry = manifest["chunks"][str(k)]
        print(f"chunk {k}: {entry['hands']} hands vs {entry['opponent']}, {entry['draws']} "
              f"draws, {entry['discard_decisions']} discards in {entry['seconds']} s",
              flush=True)
    save_manifest(path, manifest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
