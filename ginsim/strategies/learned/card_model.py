"""The learned card play's weights as files: plain arrays (``.npz``) with their
provenance beside them (``.json``), shipped in ``data/`` or written anywhere by
``scripts/train_card_play.py``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ...game.inputs.specs import brief
from ..params import N_DISCARD_FEATURES, N_DRAW_FEATURES
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
                     provenance: dict) -> Path:
    """Write the weights (``discard``: one per :data:`DISCARD_FEATURES`, ``draw``: one per
    :data:`DRAW_FEATURES`) to ``path`` (.npz) and ``provenance`` beside it (.json)."""
    path = Path(path)
    discard = np.asarray(discard, dtype=np.float64)
    draw = np.asarray(draw, dtype=np.float64)
    if discard.shape != (N_DISCARD_FEATURES,) or draw.shape != (N_DRAW_FEATURES,):
        raise ValueError(f"a card model has {N_DISCARD_FEATURES} discard and "
                         f"{N_DRAW_FEATURES} draw weights, not {discard.shape} and {draw.shape}")
    np.savez(path, discard=discard, draw=draw, discard_features=np.array(DISCARD_FEATURES),
             draw_features=np.array(DRAW_FEATURES))
    path.with_suffix(".json").write_text(json.dumps(provenance, indent=1, sort_keys=True) + "\n")
    return path


def read_card_model(name_or_path: str) -> tuple[np.ndarray, np.ndarray]:
    """The ``(discard, draw)`` weights of a shipped model or an .npz file; ValueError in
    one line when there is none or its features are not this version's."""
    path = model_path(name_or_path)
    if not path.is_file():
        raise ValueError(f"unknown card model {brief(str(name_or_path))}: give an .npz file "
                         f"written by scripts/train_card_play.py or one of "
                         f"{', '.join(shipped_models()) or 'none shipped'}")
    try:
        with np.load(path) as data:
            names = (tuple(data["discard_features"]), tuple(data["draw_features"]))
            discard, draw = data["discard"].astype(np.float64), data["draw"].astype(np.float64)
    except (OSError, KeyError, ValueError) as exc:
        raise ValueError(f"card model {brief(str(path))} is not a card model file ({exc})"
                         ) from None
    if names != (DISCARD_FEATURES, DRAW_FEATURES):
        raise ValueError(f"card model {brief(str(path))} was trained on other features: "
                         f"train it again with scripts/train_card_play.py")
    return discard, draw


def card_model_values(name_or_path: str) -> tuple[float, ...]:
    """The ``card_model`` parameter's slots: the discard weights, then the draw weights."""
    discard, draw = read_card_model(name_or_path)
    return tuple(float(v) for v in np.concatenate([discard, draw]))


def card_model_provenance(name_or_path: str) -> dict:
    """The provenance written beside a model (empty when none is)."""
    path = model_path(name_or_path).with_suffix(".json")
    return json.loads(path.read_text()) if path.is_file() else {}
