"""Posterior sampling of the opponent's hand and the positions it is checked on.

The replay must reproduce the policy exactly: the true deal and draw order of a
simulated hand never pay a deviation, and an opponent who waits where the model knocks
pays log(wait) a turn. Particles respect everything public, and on
simulated positions the posterior guesses the opponent's deadwood far better than
uniform sampling (fixed seeds). The sampler itself is checked against plain importance
sampling, and its parts against what they claim: the draw-order proposal's rate,
systematic resampling, a discard likelihood ordered as the policy prefers."""

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import meld_dense_hands, ref_min_deadwood

import ginsim
from ginsim.analysis.positions import hand_events
from ginsim.game.card_tables import card_tables
from ginsim.game.cards import cards_to_mask, parse_cards
from ginsim.game.history import EV_DISCARD, EV_STOCK, EV_TAKE
from ginsim.game.rules import Rules
from ginsim.game.state import ST_DISCARDED, ST_PASSED, ST_PILE_MASK, ST_TAKEN
from ginsim.simulator.belief.belief_types import Likelihood, PublicHistory, Replay
from ginsim.simulator.belief.posterior import knock_limit_of, sample_beliefs, unseen_mask
from ginsim.simulator.belief.replay_nb import (
    DEVIATION,
    discard_log_prob_nb,
    replay_log_weight_nb,
)
from ginsim.simulator.belief.sample_nb import (
    KEEP_DRAWN,
    TEMPERATURE,
    WAIT,
    hidden_hand_nb,
    resample_nb,
    stock_cards_nb,
)
from ginsim.simulator.machine.buffers import new_board
from ginsim.simulator.machine.history_replay import parse_history
from ginsim.simulator.machine.records import (
    TRACE_DRAWN,
    TRACE_HAND,
    TRACE_HAND_B,
    TRACE_SEAT,
    TRACE_SOURCE,
)
from ginsim.simulator.play.engine import play_records, seat_params
from ginsim.strategies.expert_nb import expert_discard_nb
from ginsim.strategies.learned.learned_nb import learned_discard_nb
from ginsim.strategies.policy_nb import (
    discard_context_nb,
    memory_discard_nb,
    memory_discard_score_nb,
)

RULES = Rules()


@pytest.fixture(scope="module")
def table():
    return ginsim.positions("memory2", "memory2", 40, seed=11)


def true_histories(opponent: str, hands: int, seed: int):
    """Per hand of memory2 against ``opponent``: the history seen from seat a (seat b
    the belief's opponent), seat b's stock draws, dealer, upcard and dealt hand."""
    records, trace = play_records("memory2", opponent, stop=hands, seed=seed,
                                  trace_rows=hands * 100)
    starts = np.searchsorted(trace[:, TRACE_HAND], np.arange(hands + 1))
    for h in range(hands):
        rows = trace[starts[h]:starts[h + 1]]
        events = None
        for _, drawn_events, _ in hand_events(rows, int(records[h]["dealer"]),
                                              int(records[h]["upcard"]), RULES):
            events = drawn_events
        ev = np.array(events, dtype=np.int64).reshape(-1, 4)
        # seat b is the opponent (seat 1) of the belief, as in the history notation
        draws = iter(int(r[TRACE_DRAWN]) for r in rows
                     if r[TRACE_SEAT] == 1 and r[TRACE_SOURCE] == 0)
        cards = np.array([next(draws) if e[0] == 1 and e[1] == EV_STOCK else -1 for e in ev],
                         dtype=np.int64)
        yield ev, cards, int(records[h]["dealer"]), int(records[h]["upcard"]), int(
            rows[0, TRACE_HAND_B])


def replay(history, wait: float = WAIT) -> float:
    ev, cards, dealer, upcard, dealt = history
    like = Likelihood(np.stack([seat_params("memory2", "memory2")]), np.zeros(1), np.zeros(1),
                      TEMPERATURE, np.log(wait), RULES.packed(), card_tables(RULES))
    work = Replay(cards, new_board(), np.zeros(3, dtype=np.uint64))
    return replay_log_weight_nb(PublicHistory(ev, dealer, upcard, 10), dealt, like, -np.inf, work)


def test_the_true_deal_and_draws_pay_no_deviation():
    for history in true_histories("memory2", 25, seed=5):
        assert replay(history) > -DEVIATION / TEMPERATURE


def board_around(cards: list[int], rnd, modelled_pickups: int = 0):
    """A board around the modelled player's 11 ``cards``, the other cards shuffled by
    ``rnd``: six on the pile, the advised player's two pickups, three discards and a
    pass, and ``modelled_pickups`` cards the modelled player took from the pile."""
    rest = [c for c in range(52) if c not in cards]
    rnd.shuffle(rest)
    board = new_board()
    hs = board.hs
    hs[ST_PILE_MASK] = cards_to_mask(rest[:6])
    hs[ST_TAKEN] = cards_to_mask(rest[6:8])  # the advised player's pickups and history
    hs[ST_DISCARDED] = cards_to_mask(rest[8:11])
    hs[ST_PASSED] = cards_to_mask(rest[11:12])
    hs[ST_TAKEN + 1] = cards_to_mask(rest[12:12 + modelled_pickups])
    return board


@settings(max_examples=60, deadline=None)
@given(meld_dense_hands(11), st.randoms(use_true_random=False))
def test_discard_likelihood_is_a_softmax_of_the_models_own_score(cards, rnd):
    # Over the 11 legal discards the probabilities sum to 1; the model's own discard is
    # (one of) the likeliest; without memory the score is the exact kept deadwood.
    hand = cards_to_mask(cards)
    board = board_around(cards, rnd)
    hs = board.hs
    tab = card_tables(RULES)
    for spec in ("memory2", "simple"):
        params = seat_params(spec, spec)
        logp = np.array([discard_log_prob_nb(params, hand, 0, c, TEMPERATURE, tab, board)
                         for c in cards])
        assert np.exp(logp).sum() == pytest.approx(1.0, abs=1e-9)
        if spec == "memory2":
            chosen = memory_discard_nb(params, 1, hand, 0, board, tab)
            assert logp[cards.index(chosen)] == pytest.approx(logp.max(), abs=1e-12)
            # ordered as the policy prefers (a lower kept deadwood alone is not enough)
            context = discard_context_nb(params, 1, hand, hs, tab)
            score = np.array([memory_discard_score_nb(params, 1, hand, c, context, board.work,
                                                      tab)
                              for c in cards])
            for i in range(11):
                for j in range(11):
                    if score[i] < score[j]:
                        assert logp[i] > logp[j]
        else:
            kept = np.array([ref_min_deadwood([x for x in cards if x != c]) for c in cards])
            soft = -(kept - kept.min()) / TEMPERATURE
            assert logp == pytest.approx(soft - np.log(np.exp(soft).sum()), abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(meld_dense_hands(11), st.randoms(use_true_random=False))
def test_a_choosing_models_discard_likelihood_is_its_own_choice(cards, rnd):
    # expert and the learned card play choose a discard rather than score cards in
    # deadwood points: their own choice has weight 1, every other legal discard
    # exp(-DEVIATION / T), so the other ten are equally likely
    hand = cards_to_mask(cards)
    board = board_around(cards, rnd, modelled_pickups=2)
    tab = card_tables(RULES)
    dev = DEVIATION / TEMPERATURE
    norm = np.log1p(10 * np.exp(-dev))
    for spec in ("expert", "learned"):
        params = seat_params(spec, spec)
        logp = np.array([discard_log_prob_nb(params, hand, 0, c, TEMPERATURE, tab, board)
                         for c in cards])
        # the policy's discard when it does not knock (the per-card table is filled)
        chosen = (expert_discard_nb if spec == "expert" else learned_discard_nb)(
            params, 1, hand, 0, board, tab)
        want = np.where(np.array(cards) == chosen, -norm, -dev - norm)
        assert logp == pytest.approx(want, abs=1e-9), spec


def test_waiting_where_the_model_knocks_costs_log_wait_per_turn():
    # An opponent that never knocks plays on where memory2 would knock: each such turn,
    # and nothing else, costs log(wait).
    turns = []
    for history in true_histories("memory2:knock=0", 30, seed=5):
        k = (replay(history, 0.5) - replay(history, 0.05)) / np.log(10)
        assert k == pytest.approx(round(k), abs=1e-9) and round(k) >= 0
        turns.append(round(k))
    assert sum(turns) > 0


def test_the_draw_order_proposal_keeps_the_discarded_card_as_often_as_it_says():
    # Each opponent stock draw followed by the discard of a card not from the pile is
    # proposed to be that card with chance KEEP_DRAWN + (1 - KEEP_DRAWN) / n, n being
    # the 9 to 11 cards it might have been.
    rng = np.array([7, 8, 9], dtype=np.uint64)
    hits = trials = 0
    for ev, cards, _, _, dealt in true_histories("memory2", 12, seed=3):
        hand, held = dealt, 0
        for (seat, kind, card, _), drawn in zip(ev, cards, strict=True):
            if seat != 1:
                continue
            if kind == EV_TAKE:
                hand |= 1 << card
                held |= 1 << card
            elif kind == EV_STOCK:
                hand |= 1 << drawn
            elif kind == EV_DISCARD:
                hand &= ~(1 << card)
                held &= ~(1 << card)
        after = {}  # opponent stock draw -> the card discarded next, if not from the pile
        for i in np.flatnonzero((ev[:, 0] == 1) & (ev[:, 1] == EV_STOCK)):
            later = [j for j in range(i + 1, len(ev)) if ev[j, 0] == 1]
            if later and ev[later[0], 1] == EV_DISCARD and ev[later[0], 3] == 0:
                after[int(i)] = int(ev[later[0], 2])
        order = np.full(len(ev), -1, dtype=np.int64)
        for _ in range(50):
            stock_cards_nb(ev, hand, held, order, rng)
            hits += sum(order[i] == c for i, c in after.items())
            trials += len(after)
    rate = hits / trials
    low, high = KEEP_DRAWN + (1 - KEEP_DRAWN) / 11, KEEP_DRAWN + (1 - KEEP_DRAWN) / 9
    margin = 4 * np.sqrt(high * (1 - high) / trials)
    assert trials > 500 and low - margin < rate < high + margin


def test_systematic_resampling_copies_each_particle_by_its_weight():
    # Particle i comes back floor or ceil of n * w[i] times, its draw order with it.
    rng = np.array([1, 2, 3], dtype=np.uint64)
    gen = np.random.default_rng(0)
    for n in (5, 64, 200):
        for _ in range(20):
            w = gen.dirichlet(np.full(n, 0.3))
            hands = np.arange(n, dtype=np.int64)
            logl = -np.arange(n, dtype=np.float64)
            source = np.repeat(hands[:, None], 52, axis=1)
            resample_nb(hands, logl, source, w, np.zeros(n, dtype=np.int64), np.zeros(n),
                        np.zeros_like(source), rng)
            counts = np.bincount(hands, minlength=n)
            assert counts.sum() == n and np.all(np.abs(counts - n * w) < 1 + 1e-9)
            assert (logl == -hands).all() and (source == hands[:, None]).all()


@numba.njit(cache=True)
def importance_sample(events, dealer, upcard, knock_limit, unseen_cards, n_hidden, held,
                      params, rules, tab, hands, logw, ev_card, board, rng):
    """Plain importance sampling from the prior (the reference for the SMC sampler)."""
    for p in range(hands.shape[0]):
        hands[p] = hidden_hand_nb(unseen_cards, unseen_cards.shape[0], n_hidden, held, rng)
        dealt, logc = stock_cards_nb(events, hands[p], held, ev_card, rng)
        like = Likelihood(params, np.zeros(1), np.zeros(1), TEMPERATURE, np.log(WAIT), rules,
                          tab)
        logw[p] = logc + replay_log_weight_nb(PublicHistory(events, dealer, upcard, knock_limit),
                                              dealt, like, -np.inf, Replay(ev_card, board, rng))


def test_the_sampler_agrees_with_importance_sampling_early_in_the_hand():
    # Early in a hand, 40,000 draws from the prior weighted by the likelihood estimate
    # the posterior mean deadwood well; the tempered SMC sampler must agree with it
    # (Metropolis moves that did not keep the posterior once drifted by several points).
    tab = card_tables(RULES)
    params = np.stack([seat_params("memory2", "memory2")])
    from ginsim.game.melds_nb import WORK_SIZE, min_deadwood_nb
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    rng = np.array([1, 2, 3], dtype=np.uint64)
    table = ginsim.positions("memory2", "memory2", 30, seed=2)
    diffs, variances = [], []
    for r in table[table.stock_left.between(22, 26)].itertuples():
        hist = parse_history(r.history)
        mine = cards_to_mask(parse_cards(r.cards) + parse_cards(r.drawn))
        unseen = unseen_mask(hist, mine)
        cards = np.array([c for c in range(52) if (unseen >> c) & 1], dtype=np.int64)
        held = hist.taken[1]
        events = np.ascontiguousarray(hist.events, dtype=np.int64).reshape(-1, 4)
        hands, logw = np.zeros(40_000, dtype=np.int64), np.zeros(40_000)
        importance_sample(events, hist.dealer, hist.upcard, knock_limit_of(hist, RULES), cards,
                          10 - bin(held).count("1"), held, params, RULES.packed(), tab, hands,
                          logw, np.full(len(events), -1, dtype=np.int64),
                          new_board(), rng)
        w = np.exp(logw - logw.max())
        w /= w.sum()
        ess = 1 / (w ** 2).sum()
        if ess < 300:
            continue
        dw = np.array([min_deadwood_nb(int(h), tab, work) for h in hands])
        mean = (w * dw).sum()
        se2 = (w * (dw - mean) ** 2).sum() / ess
        b = sample_beliefs(hist, mine, "memory2", RULES, 1000, seed=1)
        smc = sum(wt * min_deadwood_nb(int(h), tab, work)
                  for h, wt in zip(b.hands, b.weights, strict=True))
        assert abs(smc - mean) < 5 * np.sqrt(se2) + 1.5
        diffs.append(smc - mean)
        variances.append(se2)
    assert len(diffs) >= 8
    assert abs(np.mean(diffs)) < 4 * np.sqrt(np.sum(variances)) / len(diffs) + 0.5


def test_positions_are_consistent_with_their_history(table):
    assert len(table) > 100
    for r in table.itertuples():
        hist = parse_history(r.history)
        assert hist.to_move == 0 and hist.drawn and hist.stock_left == r.stock_left
        mine = cards_to_mask(parse_cards(r.cards) + parse_cards(r.drawn))
        opp = cards_to_mask(parse_cards(r.opponent_hand))
        assert mine & opp == 0 and opp & hist.pile_mask == 0
        assert hist.taken[1] & ~opp == 0
        assert list(hist.pile) == parse_cards(r.pile) or r.drawn_from == "pile"
    for r in table.sample(20, random_state=1).itertuples():
        assert r.opponent_deadwood == ref_min_deadwood(parse_cards(r.opponent_hand))


def test_particles_respect_the_public_record_and_the_seed(table):
    r = table[table.stock_left.between(12, 20)].iloc[3]
    hist = parse_history(r.history)
    mine = cards_to_mask(parse_cards(r.cards) + parse_cards(r.drawn))
    b = sample_beliefs(hist, mine, "memory2", RULES, 300, seed=4)
    assert 1 <= b.ess <= 300 and abs(b.weights.sum() - 1) < 1e-9
    for h in b.hands:
        h = int(h)
        assert bin(h).count("1") == 10 and h & hist.taken[1] == hist.taken[1]
        assert h & mine == 0 and h & hist.pile_mask == 0
    again = sample_beliefs(hist, mine, "memory2", RULES, 300, seed=4)
    assert (again.hands == b.hands).all() and (again.weights == b.weights).all()


def test_posterior_guesses_the_opponent_deadwood_better_than_uniform(table):
    tab = card_tables(RULES)
    from ginsim.game.melds_nb import WORK_SIZE, min_deadwood_nb
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    errors = {True: [], False: []}
    for r in table[table.stock_left.between(12, 20)].head(40).itertuples():
        hist = parse_history(r.history)
        mine = cards_to_mask(parse_cards(r.cards) + parse_cards(r.drawn))
        for uniform in (True, False):
            b = sample_beliefs(hist, mine, "memory2", RULES, 150, seed=1, uniform=uniform)
            guess = sum(w * min_deadwood_nb(int(h), tab, work)
                        for h, w in zip(b.hands, b.weights, strict=True))
            errors[uniform].append(guess - r.opponent_deadwood)
    uniform_mae = np.mean(np.abs(errors[True]))
    posterior_mae = np.mean(np.abs(errors[False]))
    assert posterior_mae < 0.5 * uniform_mae
    assert abs(np.mean(errors[False])) < 6
