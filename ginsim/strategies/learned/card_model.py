"""The learned card play's weights as files: plain arrays (``.npz``) with their
provenance beside them (``.json``), shipped in ``data/`` or written anywhere by
``scripts/train_card_play.py``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ...game.inputs.files import ArraySpec, parse_json, read_bounded, read_npz
from ...game.inputs.specs import brief
from ..params import N_DISCARD_FEATURES, N_DISCARD_PAIRS, N_DRAW_FEATURES
from .card_features_nb import DISCARD_FEATURES, DRAW_FEATURES

MODEL_DIR = Path(__file__).parent / "data"
SHIPPED_MODEL = "card_play"  # the learned preset's model


def shipped_models() -> tuple[str, ...]:
    """The names of the models shipped in the package."""
    return tuple(sorted(p.stem for p in MODEL_DIR.glob("*.npz")))


def model_path(name_or_path: str) -> Path:
    """The ``.npz`` file of a shipped model's name, or the file given."""
    text = str(name_or_path).strip()
    if "/" not in text and not text.endswith(".npz"):
        return MODEL_DIR / f"{text}.npz"
    return Path(text)


def write_card_model(path: str | Path, discard: np.ndarray, draw: np.ndarray,
                     provenance: dict, pairs: np.ndarray | None = None) -> Path:
    """Write the weights (``discard``: one per :data:`DISCARD_FEATURES`, ``draw``: one per
    :data:`DRAW_FEATURES`, and for a quadratic discard model ``pairs``: one per product of
    two discard features, ``i <= j`` in ``numpy.triu_indices`` order) to ``path`` (.npz)
    and ``provenance`` beside it (.json)."""
    path = Path(path)
    discard = np.asarray(discard, dtype=np.float64)
    draw = np.asarray(draw, dtype=np.float64)
    arrays = {}
    if pairs is not None:
        arrays["pairs"] = np.asarray(pairs, dtype=np.float64)
        if arrays["pairs"].shape != (N_DISCARD_PAIRS,):
            raise ValueError(f"a quadratic card model has {N_DISCARD_PAIRS} pair weights, "
                             f"not {arrays['pairs'].shape}")
    if discard.shape != (N_DISCARD_FEATURES,) or draw.shape != (N_DRAW_FEATURES,):
        raise ValueError(f"a card model has {N_DISCARD_FEATURES} discard and "
                         f"{N_DRAW_FEATURES} draw weights, not {discard.shape} and {draw.shape}")
    np.savez(path, discard=discard, draw=draw, discard_features=np.array(DISCARD_FEATURES),
             draw_features=np.array(DRAW_FEATURES), **arrays)
    path.with_suffix(".json").write_text(json.dumps(provenance, indent=1, sort_keys=True) + "\n")
    return path


#: The arrays of a card model file (:func:`read_card_model`): the weights, one per feature
#: (``pairs`` only in a quadratic model), and the features' names they were trained on.
CARD_MODEL_ARRAYS = {
    "discard": ArraySpec("f", N_DISCARD_PAIRS), "draw": ArraySpec("f", N_DISCARD_PAIRS),
    "discard_features": ArraySpec("U", N_DISCARD_PAIRS),
    "draw_features": ArraySpec("U", N_DISCARD_PAIRS),
    "pairs": ArraySpec("f", N_DISCARD_PAIRS, required=False)}
#: Bounds on the provenance beside a model (a few kB, nested four deep when written).
PROVENANCE_MAX_BYTES, PROVENANCE_MAX_DEPTH = 1_000_000, 16
#: How to get a card model file, for the refusals.
TRAIN_HINT = "give an .npz file written by scripts/train_card_play.py"


def read_card_model(name_or_path: str) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """The ``(discard, draw, pairs)`` weights of a shipped model or an .npz file (``pairs``
    None for a linear discard model); ValueError in one line naming the file when there
    is none, it is damaged or not a card model (:func:`~ginsim.game.inputs.files.read_npz`
    checks its sizes before unpacking it), or its features are not this version's."""
    path = model_path(name_or_path)
    if not path.is_file():
        raise ValueError(f"unknown card model {brief(str(name_or_path))}: {TRAIN_HINT} or "
                         f"one of {', '.join(shipped_models()) or 'none shipped'}")
    arrays = read_npz(path, "card model", CARD_MODEL_ARRAYS, TRAIN_HINT)
    names = (tuple(str(n) for n in arrays["discard_features"]),
             tuple(str(n) for n in arrays["draw_features"]))
    if names != (DISCARD_FEATURES, DRAW_FEATURES):
        raise ValueError(f"card model {path} was trained on other features: "
                         f"train it again with scripts/train_card_play.py")
    discard, draw = arrays["discard"].astype(np.float64), arrays["draw"].astype(np.float64)
    pairs = arrays["pairs"].astype(np.float64) if "pairs" in arrays else None
    counts = {"discard": (discard, N_DISCARD_FEATURES), "draw": (draw, N_DRAW_FEATURES),
              "pairs": (pairs, N_DISCARD_PAIRS)}
    for name, (weights, count) in counts.items():
        if weights is not None and weights.shape != (count,):
            raise ValueError(f"card model {path} holds {len(weights)} {name} weights, not "
                             f"{count}; {TRAIN_HINT}")
    return discard, draw, pairs


def pair_matrix(pairs: np.ndarray) -> np.ndarray:
    """The symmetric matrix ``m`` with ``f @ m @ f`` equal to the sum of each pair weight
    times its two features' product (``pairs`` in ``numpy.triu_indices`` order): the
    form the kernel evaluates, a row at a time."""
    n = len(DISCARD_FEATURES)
    upper = np.zeros((n, n))
    upper[np.triu_indices(n)] = pairs
    return (upper + upper.T) / 2


def card_model_values(name_or_path: str) -> tuple[float, ...]:
    """The ``card_model`` parameter's slots: the discard weights, the draw weights, 1 for a
    quadratic discard model (else 0), then its :func:`pair_matrix` row by row (zeros for a
    linear one)."""
    discard, draw, pairs = read_card_model(name_or_path)
    quadratic = [0.0 if pairs is None else 1.0]
    n = len(DISCARD_FEATURES)
    matrix = np.zeros((n, n)) if pairs is None else pair_matrix(pairs)
    return tuple(float(v) for v in np.concatenate([discard, draw, quadratic, matrix.ravel()]))


def card_model_provenance(name_or_path: str) -> dict:
    """The provenance written beside a model (empty when none is); a damaged one is a
    one-line ValueError naming it."""
    path = model_path(name_or_path).with_suffix(".json")
    if not path.is_file():
        return {}
    where = f"card model provenance {path}"
    found = parse_json(read_bounded(path, PROVENANCE_MAX_BYTES, "card model provenance"),
                       where, PROVENANCE_MAX_DEPTH)
    if not isinstance(found, dict):
        raise ValueError(f"{where} holds no JSON object")
    return found
