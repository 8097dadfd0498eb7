"""Fuzzing Greek Rami's surfaces (issue 43): lay-down specs (hand, table, rules), the deal
and game API's arguments, and result stores. Each case asserts its outcome: a plan that
only moves cards the hand and table hold, records of the asked shape, a store that reads
back what was played; or a refusal of one short ValueError line that damaged nothing."""

from __future__ import annotations

import json
import shutil
from collections import Counter

import numpy as np
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ginsim.game.cards import card_text
from ginsim.rami.game.cards import COPIES, JOKER, parse_hand
from ginsim.rami.game.melds import best_lay_down
from ginsim.rami.game.rules import RamiRules
from ginsim.rami.play.api import play_games, simulate
from ginsim.rami.play.store import MANIFEST, load_deals, save_deals
from ginsim.runner.lock import StoreError

MAX_ERROR_CHARS = 400


def fuzz(examples: int) -> settings:
    """Hypothesis settings of one fuzz test: ``examples`` inputs, no deadline."""
    return settings(max_examples=examples, deadline=None,
                    suppress_health_check=list(HealthCheck))


def outcome(call):
    """(result, None) or (None, the refusal: a ValueError or TypeError of one short line)."""
    try:
        result = call()
    except Exception as exc:  # noqa: BLE001 (checked just below)
        assert isinstance(exc, (ValueError, TypeError)), repr(exc)[:300]
        assert str(exc) and "\n" not in str(exc) and len(str(exc)) < MAX_ERROR_CHARS, exc
        event(f"refused: {type(exc).__name__}")
        return None, exc
    event("taken")
    return result, None


junk = st.one_of(
    st.none(), st.booleans(), st.floats(allow_nan=True), st.binary(max_size=6),
    st.text(max_size=6), st.integers(-(2**70), 2**70),
    st.sampled_from([-1, 0, 1, 2**63 - 1, 2**63, 2**64 - 1, 2**64]),
)
#: Junk for a count of deals: a large valid count would play for hours (up to 10**12 is
#: allowed), so whole numbers above 30 are left out.
junk_count = junk.filter(lambda v: not (isinstance(v, int) and v > 30))
TOKENS = [card_text(c) for c in range(52)] + ["JK", "10H", "joker", "ZZ", "1S", ""]
RULES = ["rami", "rami_two_jokers", "rami_fourteen", "rami:jokers=0", "rami:jokers_per_meld=2"]

# --- lay-down ------------------------------------------------------------------------------

cards_text = st.lists(st.sampled_from(TOKENS), max_size=16).map(" ".join)
melds = st.one_of(
    st.tuples(st.integers(0, 3), st.integers(0, 8), st.integers(3, 5)).map(  # a run
        lambda t: " ".join(card_text(t[0] * 13 + r) for r in range(t[1], t[1] + t[2]))),
    st.tuples(st.integers(0, 12), st.integers(3, 4)).map(  # a set
        lambda t: " ".join(card_text(s * 13 + t[0]) for s in range(t[1]))),
    st.sampled_from(["5H JK 7H", "9S 9D JK", "QD JK AD", "AS 2S 3S", "JK JK JK"]),
    cards_text,
)


def _counts(hand: str, table: list[str], jokers: int) -> Counter:
    """How often each card appears in the hand and on the table together."""
    out: Counter = Counter()
    for text in [hand, *table]:
        out.update(parse_hand(text, jokers))
    return out


@fuzz(200)
@given(cards_text, st.lists(melds, max_size=4), st.sampled_from(RULES), st.booleans())
def test_lay_down_specs(hand, table, rules, opened):
    """A plan only for a position the decks can hold, laying only the hand's cards."""
    plan, exc = outcome(lambda: best_lay_down(hand, table, opened=opened, rules=rules))
    if exc is not None:
        return
    limit = RamiRules.coerce(rules).jokers
    counts = _counts(hand, table, 4)
    assert all(n <= (limit if k == JOKER else COPIES) for k, n in counts.items()), counts
    held = Counter(parse_hand(hand, 4))
    left = Counter(plan.left)
    assert all(left[k] <= held[k] for k in left)  # nothing left that was not held
    assert plan.laid_value >= 0 and (plan.moves or plan.laid_value == 0)


@fuzz(100)
@given(st.lists(st.sampled_from([card_text(c) for c in range(52)] + ["JK"]), max_size=30),
       st.sampled_from(RULES))
def test_lay_down_refuses_exactly_the_cards_the_decks_lack(cards, rules):
    """Up to 14 cards as the hand, beside a table run when more than 7 came: refused
    exactly when some card is there more often than two decks (and the rules' jokers)
    hold it."""
    limit = RamiRules.coerce(rules).jokers
    hand = cards[:14]
    table = ["5H 6H 7H"] if len(cards) > 7 else []
    counts = Counter([*hand, *(table[0].split() if table else [])])
    over = any(n > (limit if c == "JK" else COPIES) for c, n in counts.items())
    plan, exc = outcome(lambda: best_lay_down(" ".join(hand), table, rules=rules))
    hand_too_big = len(hand) > RamiRules.coerce(rules).hand_size + 1
    if over:
        assert exc is not None
    elif not hand_too_big:
        assert exc is None, exc


# --- the deal and game API -------------------------------------------------------------------

def one_bad(valid: dict, bad: dict) -> st.SearchStrategy[dict]:
    """Valid keyword arguments, half the time with one replaced by a bad value."""
    def spoil(kwargs: dict) -> st.SearchStrategy[dict]:
        return st.sampled_from(sorted(kwargs)).flatmap(
            lambda key: bad[key].map(lambda v: {**kwargs, key: v}))
    return st.fixed_dictionaries(valid).flatmap(lambda d: st.one_of(st.just(d), spoil(d)))


SPECS = ["careful", "simple", "naive", "patient", "careful:open_at=40"]
api_kwargs = one_bad(
    {"strategies": st.lists(st.sampled_from(SPECS), min_size=2, max_size=6),
     "deals": st.integers(1, 12), "seed": st.integers(0, 2**64 - 1),
     "rules": st.sampled_from(RULES)},
    {"strategies": st.one_of(st.lists(st.sampled_from(SPECS), max_size=1),
                             st.lists(st.sampled_from(SPECS), min_size=7, max_size=8),
                             st.lists(st.one_of(st.sampled_from(
                                 ["nosuch", "", "careful:open_at=999", "careful:x=1"]), junk),
                                 min_size=2, max_size=3), junk),
     "deals": st.one_of(st.integers(-3, 0), junk_count),
     "seed": st.one_of(st.sampled_from([-1, 2**64, 2**70]), junk),
     "rules": st.one_of(st.sampled_from(["rami:jokers=9", "nope", "rami:open_min=-1"]), junk)})


@fuzz(60)
@given(api_kwargs)
def test_rami_api_arguments(kwargs):
    """simulate and play_games: a row per deal (or game) and player, or one line; both
    take and refuse the same seats, seed and rules, and neither a seed outside 0..2**64-1."""
    strategies, deals, seed, rules = (kwargs[k] for k in ("strategies", "deals", "seed",
                                                          "rules"))
    frame, exc = outcome(lambda: simulate(strategies, deals, seed=seed, rules=rules))
    games, exc2 = outcome(lambda: play_games(strategies, 2, seed=seed, rules=rules))
    deals_ok = isinstance(deals, int) and not isinstance(deals, bool) and deals >= 1
    seed_ok = isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed < 2**64
    if deals_ok:
        assert (exc is None) == (exc2 is None), (exc, exc2)
    if not seed_ok:
        assert exc is not None and exc2 is not None
    if exc is None:
        assert deals_ok and len(frame) == deals * len(strategies)
        assert sorted(frame["player"].unique()) == list(range(len(strategies)))
    if exc2 is None:
        assert len(games) == 2 * len(strategies) and games["won"].sum() >= 2


# --- stores -------------------------------------------------------------------------------------

manifest_edits = st.one_of(
    st.tuples(st.sampled_from(["seed", "deals", "chunk", "strategies", "rules", "kind"]),
              junk).map(lambda kv: ("definition", *kv)),
    st.tuples(st.just("chunks"), st.sampled_from(["c000000", "c000009"]),
              st.one_of(junk, st.just({"sha256": "0" * 64, "bytes": 1}))),
    st.tuples(st.just("root"), st.sampled_from(["definition", "chunks", "extra"]), junk),
)


store_kwargs = one_bad({"seed": st.integers(0, 2**64 - 1), "deals": st.integers(1, 8),
                        "chunk": st.one_of(st.none(), st.integers(2, 8))},
                       {"seed": junk, "deals": junk_count, "chunk": junk_count})


@fuzz(30)
@given(store_kwargs, manifest_edits)
def test_rami_stores(tmp_path_factory, kwargs, edit):
    """save_deals with any arguments: a store that loads back as the deals played, or one
    line; then a manifest edited anyhow: loaded as before, or refused in one line, the
    chunks untouched."""
    seed, deals, chunk = kwargs["seed"], kwargs["deals"], kwargs["chunk"]
    out = tmp_path_factory.mktemp("store") / "r"
    manifest, exc = outcome(lambda: save_deals(out, ["simple", "careful"], deals, seed=seed,
                                               chunk=chunk))
    if exc is not None:
        assert not (out / MANIFEST).exists()
        return
    records = load_deals(out)
    assert len(records) == 2 * deals and manifest["definition"]["seed"] == seed
    chunks = {p.name: p.read_bytes() for p in (out / "chunks").iterdir()}
    where, key, value = edit
    edited = json.loads((out / MANIFEST).read_text())
    target = edited if where == "root" else edited[where]
    target[key] = value
    try:
        (out / MANIFEST).write_text(json.dumps(edited))
    except (TypeError, ValueError):  # bytes and NaN are no JSON: nothing to write
        shutil.rmtree(out.parent)
        return
    again, exc = outcome(lambda: load_deals(out))
    if exc is None:
        assert np.array_equal(again, records)
    else:
        assert isinstance(exc, StoreError)
    assert {p.name: p.read_bytes() for p in (out / "chunks").iterdir()} == chunks
    shutil.rmtree(out.parent)
