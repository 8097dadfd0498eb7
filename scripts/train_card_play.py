"""Train the learned card play's model on the teacher's rows and export its weights.

Reads the Parquet rows of scripts/make_training_data.py (``--data``, one folder or
more), holds out every hand whose index is divisible by 5, and fits with scikit-learn:

- the discard: a score over each option's features (``--form quadratic``: and over each
  product of two of them), fitted as logistic regression on pairwise differences of
  options (a ranking model, no intercept): by default each pair of options the teacher
  valued, labelled by which had the higher rollout mean and weighted by the gap
  (``--target choice``: the teacher's card against each other option). Decisions where
  the teacher knocked are the knock chart's and are left out. The teacher values only its
  rollout strategy's choice and the four discards keeping the least deadwood, so a
  quadratic score is trained only there and wild elsewhere: play it with the learned
  play's ``candidates`` parameter (and judge it here with ``--candidates``), which scores
  only the discards keeping the least deadwood;
- the draw: logistic regression of the teacher's take on the draw features (the bias is a
  feature).

Reports held-out accuracy against the teacher's choice and log loss, beside the
teacher's rollout strategy's agreement with it, and writes the weights (.npz) with
their provenance (.json): command, data, sizes, held-out figures. The same data and
settings give the same weights (lbfgs, rows sorted). Every argument, ``--out`` first, and
the rows and manifests read are checked before anything is fitted (the row files: regular
Parquet files holding their kind's columns as numbers); bad input is one line on stderr,
exit code 2.
Run: python scripts/train_card_play.py --data card_play_data \
         --out ginsim/strategies/learned/data/card_play.npz

``--compare`` writes nothing: it prints, for the held-out discards, what choosing by each
model form would cost by the teacher's own rollout means (the mean of the best valued
option's mean minus that of the valued option the model ranks first): the shipped linear
ranking, the same ranking over the features' pairwise products (quadratic), and boosted
trees (scikit-learn's HistGradientBoostingRegressor) fitted to each option's mean less
its decision's average, beside the teacher's own choice. Whether a richer model over the
same features would choose better, before making it playable.
"""

from __future__ import annotations

import json
import sys
from importlib.metadata import version
from pathlib import Path

import numpy as np
import pandas as pd

from ginsim.cli.options import Parser, UsageError, refused
from ginsim.game.inputs.checks import check_int, check_number
from ginsim.reports._files import check_output_file
from ginsim.runner.training_rows import read_row_file, read_rows_manifest
from ginsim.strategies.learned.card_features_nb import DISCARD_FEATURES, DRAW_FEATURES
from ginsim.strategies.learned.card_model import write_card_model

HELD_OUT = 5  # hands whose index is divisible by this are held out
MAX_C = 1e12  # --c: scikit-learn takes any positive C; above this the penalty is nil
MAX_CANDIDATES = 11  # a hand of 11 cards has at most 11 discards


def with_products(x: np.ndarray) -> np.ndarray:
    """The features, then each product of two of them (``i <= j`` in
    ``numpy.triu_indices`` order: the quadratic model's pair weights' order)."""
    i, j = np.triu_indices(x.shape[1])
    return np.hstack([x, x[:, i] * x[:, j]])


def read_rows(folders: list[Path], kind: str) -> pd.DataFrame:
    """Every ``<kind>_*.parquet`` of the folders, in a fixed order, each file checked
    (:func:`~ginsim.runner.training_rows.read_row_file`). Each folder numbers its
    decisions from chunk 0, so decisions are numbered again here, in order of (folder,
    decision): one folder's decision never joins another's."""
    files = [(i, f) for i, folder in enumerate(folders)
             for f in sorted(folder.glob(f"{kind}_*.parquet"))]
    if not files:
        raise ValueError(f"no {kind}_*.parquet in {', '.join(map(str, folders))}: make them "
                         f"with scripts/make_training_data.py")
    frames = [read_row_file(f, kind).to_pandas() for _, f in files]
    for i, (frame, (folder, _)) in enumerate(zip(frames, files, strict=True)):
        frame["source"] = i
        frame["folder"] = folder
    rows = pd.concat(frames, ignore_index=True)
    if "decision" in rows:
        rows["decision"] = rows.groupby(["folder", "decision"], sort=True).ngroup()
    return rows


def check_rows(disc: pd.DataFrame, draw: pd.DataFrame | None) -> None:
    """ValueError unless the rows hold enough to fit and judge each model: hands both
    to train on and held out, and the teacher's draws of both kinds."""
    for rows, what in ((disc, "discard"), (draw, "draw")):
        if rows is not None and rows.empty:
            raise ValueError(f"the {what} files hold no rows: make them with "
                             f"scripts/make_training_data.py")
        held = None if rows is None else rows["hand"] % HELD_OUT == 0
        if held is not None and (held.all() or not held.any()):
            lacking = "training" if held.all() else "held-out"
            raise ValueError(f"the {what} rows hold no {lacking} hand (held out: index "
                             f"divisible by {HELD_OUT}): make more rows")
    if draw is not None and draw.loc[draw["hand"] % HELD_OUT != 0, "take"].nunique() < 2:
        raise ValueError("the teacher's draws are all one choice: make more rows")


def pairwise(x: np.ndarray, decision: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """Per decision, the chosen option's features minus each other option's."""
    order = np.argsort(decision, kind="stable")
    x, decision, chosen = x[order], decision[order], chosen[order]
    starts = np.flatnonzero(np.r_[True, decision[1:] != decision[:-1]])
    ends = np.r_[starts[1:], len(decision)]
    rows = []
    for a, b in zip(starts, ends, strict=True):
        pick = a + int(np.argmax(chosen[a:b]))
        rows.append(x[pick] - np.delete(x[a:b], pick - a, axis=0))
    return np.concatenate(rows) if rows else np.zeros((0, x.shape[1]))


def value_pairs(x: np.ndarray, decision: np.ndarray, value: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per decision, each pair of options the teacher valued (its rollout means): the
    features' difference, whether the first was worth more, and the gap (a weight)."""
    keep = ~np.isnan(value)
    x, decision, value = x[keep], decision[keep], value[keep]
    order = np.argsort(decision, kind="stable")
    x, decision, value = x[order], decision[order], value[order]
    starts = np.flatnonzero(np.r_[True, decision[1:] != decision[:-1]])
    ends = np.r_[starts[1:], len(decision)]
    diffs, wins, gaps = [], [], []
    for a, b in zip(starts, ends, strict=True):
        i, j = np.triu_indices(b - a, 1)
        gap = value[a + i] - value[a + j]
        diffs.append(x[a + i] - x[a + j])
        wins.append(gap > 0)
        gaps.append(np.abs(gap))
    return np.concatenate(diffs), np.concatenate(wins).astype(int), np.concatenate(gaps)


def choice_scores(x: np.ndarray, decision: np.ndarray, chosen: np.ndarray,
                  score: np.ndarray) -> tuple[float, float]:
    """Share of decisions whose highest score is the chosen option, and the mean
    negative log softmax probability of the chosen option."""
    frame = pd.DataFrame({"d": decision, "s": score, "c": chosen})
    top = frame.groupby("d")["s"].transform("max")
    norm = np.log(frame.assign(e=np.exp(frame["s"] - top)).groupby("d")["e"].transform("sum"))
    picked = frame["c"] == 1
    best = frame[picked]["s"].values >= top[picked].values
    loss = -(frame["s"] - top - norm)[picked].mean()
    return float(best.mean()), float(loss)


def fit_discard(disc: pd.DataFrame, c: float, target: str, quadratic: bool = False,
                candidates: int = 0) -> tuple[np.ndarray, dict]:
    """The discard weights (fitted to the teacher's choices, or with ``target="values"``
    to its rollout means' order among the options it valued; with ``quadratic``, the
    features' weights then the pair products' of :func:`with_products`) and their held-out
    figures, choosing among the ``candidates`` least-deadwood discards as the learned
    play's parameter of that name does (0: all)."""
    from sklearn.linear_model import LogisticRegression  # loaded once the input is checked

    decided = disc.groupby("decision")["knock"].transform("max") == 0
    disc = disc[decided]
    test = disc["hand"] % HELD_OUT == 0
    names = list(DISCARD_FEATURES)
    train = disc[~test]
    form = with_products if quadratic else np.asarray
    model = LogisticRegression(C=c, fit_intercept=False, max_iter=4000 if quadratic else 2000)
    if target == "values":
        diffs, wins, gaps = value_pairs(form(train[names].to_numpy()),
                                        train["decision"].to_numpy(), train["value"].to_numpy())
        weight = gaps / gaps.mean()
    else:
        diffs = pairwise(form(train[names].to_numpy()), train["decision"].to_numpy(),
                         train["chosen"].to_numpy())
        flip = np.arange(len(diffs)) % 2 == 1
        diffs[flip] *= -1
        wins, weight = (~flip).astype(int), None
    # products span thousands of times the features' scale, where lbfgs stops far from
    # the optimum: the quadratic form is fitted on columns of unit spread
    scale = np.ones(diffs.shape[1])
    if quadratic:
        spread = diffs.std(axis=0)
        scale[spread > 0] = spread[spread > 0]
    diffs /= scale
    model.fit(diffs, wins, sample_weight=weight)
    w = model.coef_[0] / scale
    held = disc[test]
    inside = np.ones(len(held), dtype=bool)
    if candidates:
        ranks = held.groupby("decision")["kept_deadwood"].rank(method="min")
        inside = (ranks <= candidates).to_numpy()
    scored = held[inside]
    acc, loss = choice_scores(scored[names].to_numpy(), scored["decision"].to_numpy(),
                              scored["chosen"].to_numpy(), form(scored[names].to_numpy()) @ w)
    outside = 1.0 - scored["chosen"].sum() / held["chosen"].sum()
    acc *= 1.0 - outside  # a choice the candidates leave out is a miss
    default = held.groupby("decision").apply(
        lambda g: bool(g.loc[g["default"] == 1, "chosen"].max() == 1), include_groups=False)
    low = held.groupby("decision").apply(
        lambda g: bool(g.loc[g["kept_deadwood"].idxmin(), "chosen"] == 1), include_groups=False)
    return w, {"train_decisions": int(train["decision"].nunique()),
               "test_decisions": int(held["decision"].nunique()),
               "test_accuracy": round(acc, 4), "test_log_loss": round(loss, 4),
               "candidates": candidates,
               "teacher_choice_outside_candidates": round(float(outside), 4),
               "rollout_strategy_accuracy": round(float(default.mean()), 4),
               "least_deadwood_accuracy": round(float(low.mean()), 4)}


def value_regret(decision: np.ndarray, value: np.ndarray, score: np.ndarray) -> float:
    """Mean over decisions of the best valued option's value minus the value of the
    valued option of the highest ``score`` (options without a value are left out)."""
    frame = pd.DataFrame({"d": decision, "v": value, "s": score}).dropna(subset=["v"])
    top = frame.loc[frame.groupby("d")["s"].idxmax()].set_index("d")["v"]
    return float((frame.groupby("d")["v"].max() - top).mean())


def compare_forms(disc: pd.DataFrame, c: float) -> dict[str, float]:
    """Held-out value regret (:func:`value_regret`) of the discard choice by each model
    form (see the module's ``--compare``), and of the teacher's own choice."""
    from sklearn.ensemble import HistGradientBoostingRegressor
    from sklearn.linear_model import LogisticRegression

    disc = disc[disc.groupby("decision")["knock"].transform("max") == 0]
    test = (disc["hand"] % HELD_OUT == 0).to_numpy()
    x = disc[list(DISCARD_FEATURES)].to_numpy()
    decision, value = disc["decision"].to_numpy(), disc["value"].to_numpy()

    def ranked(features: np.ndarray) -> np.ndarray:
        diffs, wins, gaps = value_pairs(features[~test], decision[~test], value[~test])
        model = LogisticRegression(C=c, fit_intercept=False, max_iter=4000)
        model.fit(diffs, wins, sample_weight=gaps / gaps.mean())
        return features[test] @ model.coef_[0]

    relative = value - pd.Series(value).groupby(decision).transform("mean").to_numpy()
    fit = ~test & ~np.isnan(relative)
    trees = HistGradientBoostingRegressor(max_iter=300, random_state=0).fit(x[fit], relative[fit])
    scores = {"linear ranking (shipped form)": ranked(x),
              "quadratic ranking": ranked(with_products(x)),
              "boosted trees on values": trees.predict(x[test]),
              "the teacher's choice": disc["chosen"].to_numpy()[test].astype(float)}
    return {name: round(value_regret(decision[test], value[test], score), 4)
            for name, score in scores.items()}


def fit_draw(draw: pd.DataFrame, c: float) -> tuple[np.ndarray, dict]:
    """The draw weights and their held-out figures."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import log_loss

    test = draw["hand"] % HELD_OUT == 0
    names = list(DRAW_FEATURES)
    model = LogisticRegression(C=c, fit_intercept=False, max_iter=2000)
    train = draw[~test]
    model.fit(train[names].to_numpy(), train["take"].to_numpy())
    held = draw[test]
    p = model.predict_proba(held[names].to_numpy())[:, 1]
    y = held["take"].to_numpy()
    return model.coef_[0], {
        "train_draws": int(len(train)), "test_draws": int(len(held)),
        "test_accuracy": round(float(((p > 0.5) == (y == 1)).mean()), 4),
        "test_log_loss": round(float(log_loss(y, p, labels=[0, 1])), 4),
        "rollout_strategy_accuracy": round(float((held["default_take"] == y).mean()), 4),
        "teacher_take_rate": round(float(y.mean()), 4)}


def data_manifests(folders: list[Path]) -> list[dict]:
    """The data folders' manifests (checked, as make_training_data reads them), without
    their per-chunk entries; one-line ValueError for a folder that is not one of rows."""
    out = []
    for folder in folders:
        if not folder.is_dir():
            raise ValueError(f"--data {folder} is not a folder: give folders made by "
                             f"scripts/make_training_data.py")
        made = read_rows_manifest(folder) or {}
        chunks = made.pop("chunks", {})
        made["hands"] = sum(c["hands"] for c in chunks.values())
        made["making_seconds"] = round(sum(c["seconds"] for c in chunks.values()), 1)
        out.append(made)
    return out


def check_out(out: str) -> Path:
    """``--out``: an .npz file name in a folder that exists (its provenance .json goes
    beside it), checked before any row is read."""
    if Path(out).is_dir():
        raise ValueError(f"--out {out} is a directory: name the model's file, e.g. "
                         f"--out {Path(out) / 'card_play.npz'}")
    path = check_output_file(out, "--out")
    if path.suffix != ".npz":
        raise ValueError(f"--out must name an .npz file (the model's weights), got {out!r}")
    if path.with_suffix(".json").is_dir():
        raise ValueError(f"--out {out}: its provenance {path.with_suffix('.json')} would be "
                         f"a directory; name the model elsewhere")
    return path


def parser() -> Parser:
    parser = Parser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, nargs="+", required=True)
    parser.add_argument("--out", help="the model's .npz file (needed unless --compare)")
    parser.add_argument("--c", type=float, default=1.0, help="inverse L2 strength (above 0)")
    parser.add_argument("--target", choices=("choice", "values"), default="values",
                        help="fit the discard to the teacher's choices, or to the order of "
                        "its rollout means (pairs weighted by their gap)")
    parser.add_argument("--form", choices=("linear", "quadratic"), default="linear",
                        help="the discard score: linear in the features, or also in each "
                        "product of two of them")
    parser.add_argument("--candidates", type=int, default=0,
                        help="judge the held-out choices among the discards keeping the "
                        "least deadwood, this many (ties kept), as the learned play's "
                        "candidates parameter plays them; 0: all")
    parser.add_argument("--compare", action="store_true",
                        help="print the held-out value regret of richer model forms; "
                        "write nothing")
    return parser


def prepare(argv: list[str] | None):
    """Every argument checked, ``--out`` first, then the rows read and checked, before
    anything is fitted: the arguments, data manifests and discard and draw rows."""
    args = parser().parse_args(argv)
    if args.out is None and not args.compare:
        raise UsageError("train_card_play: --out FILE.npz is needed (or --compare, which "
                         "writes nothing)")
    if not args.compare:
        args.out = check_out(args.out)
    args.c = check_number(args.c, "--c", 0.0, MAX_C, low_open=True,
                          hint="the inverse of the L2 penalty's strength, e.g. 1")
    args.candidates = check_int(args.candidates, "--candidates", 0, MAX_CANDIDATES,
                                hint="0 scores every discard")
    manifests = data_manifests(args.data)
    disc = read_rows(args.data, "discard").sort_values(["decision", "card"], kind="stable")
    draw = None
    if not args.compare:
        draw = read_rows(args.data, "draw").sort_values(["hand", "seat", "source"],
                                                        kind="stable")
    check_rows(disc, draw)
    return args, manifests, disc, draw


def main(argv: list[str] | None = None) -> int:
    try:
        args, manifests, disc, draw = prepare(argv)
    except (UsageError, ValueError) as exc:
        return refused("train_card_play", exc)
    if args.compare:
        print(json.dumps({"held_out_value_regret": compare_forms(disc, args.c)}, indent=1))
        return 0
    quadratic = args.form == "quadratic"
    w_disc, disc_fig = fit_discard(disc, args.c, args.target, quadratic, args.candidates)
    w_draw, draw_fig = fit_draw(draw, args.c)
    provenance = {"command": " ".join(["python", *sys.argv]), "data": manifests,
                  "held_out": f"hands whose index is divisible by {HELD_OUT}",
                  "discard": disc_fig, "draw": draw_fig, "c": args.c, "target": args.target,
                  "form": args.form, "scikit_learn": version("scikit-learn"),
                  "discard_rows": int(len(disc)), "draw_rows": int(len(draw))}
    n = len(DISCARD_FEATURES)
    try:
        write_card_model(args.out, w_disc[:n], w_draw, provenance,
                         pairs=w_disc[n:] if quadratic else None)
    except OSError as exc:
        return refused("train_card_play", ValueError(
            f"cannot write {exc.filename or args.out}: {exc.strerror or exc}"))
    print(json.dumps({"discard": disc_fig, "draw": draw_fig}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
