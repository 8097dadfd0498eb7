"""The Monte Carlo player: every choice by rollouts over posterior-sampled worlds.

Contract as in :mod:`ginsim.simulator.phases_nb`. One seat (``mc_seat``) is the mc
player. Its hand is played through the phases: the deal, the upcard offers
(:func:`first_turn_nb`, the mc seat deciding them with its rollout strategy), and for
each turn either the other seat's :func:`draw_nb`/:func:`discard_nb` or the mc seat's
turn: sample the opponent's hand from the public history (:mod:`belief_nb`), lay out
``rollouts`` worlds (a resampled guess and a shuffled stock of the remaining unseen
cards) on a copy of the position, play each option in every world with the rollout
strategies (the mc seat's ``rollout``, the opponent as ``model``) and pick the best
mean; then apply it with the phase primitives. The copy never sees the real hidden
cards: the opponent's hand and the stock are overwritten before any option is played.

Events (for the belief) are kept relative to the mc seat: 0 = the mc player, 1 = its
opponent, as in :mod:`ginsim.game.history`.
"""


from ..game._jit import jit
from ..game.history import EV_DISCARD, EV_PASS, EV_STOCK, EV_TAKE
from ..game.melds_nb import NO_DISCARD, W_DISCARD, best_discard_nb, popcount_nb
from ..game.rng_nb import below_nb, stream_key_nb
from ..game.rules import R_BIG_GIN_BONUS, R_LAST_DISCARD
from ..game.state import (
    ENDING_DEAD,
    FULL_DECK,
    SOURCE_DEAL,
    SOURCE_PILE,
    ST_DEALER,
    ST_DECK,
    ST_ENDING,
    ST_FORBIDDEN,
    ST_HAND,
    ST_KNOCK_LIMIT,
    ST_PASSED,
    ST_PILE,
    ST_PILE_LEN,
    ST_PILE_MASK,
    ST_PLANNED,
    ST_POS,
    ST_SOURCE,
    ST_TAKEN,
    ST_TRACE_ROW,
    ST_TURNS,
    ST_UPCARD,
)
from .belief_nb import smc_beliefs_nb
from .hand_nb import record_hand_nb
from .phases_nb import (
    MAX_TURNS,
    apply_discard_nb,
    copy_position_nb,
    deal_nb,
    discard_nb,
    draw_nb,
    draw_stock_nb,
    first_turn_nb,
    last_discard_turn_nb,
    net_points_nb,
    play_on_nb,
    seat_streams_nb,
    showdown_nb,
    shuffle_deck_nb,
    take_pile_top_nb,
)
from .records import TRACE_DISCARD, TRACE_DRAWN, TRACE_SEAT, TRACE_SOURCE

MAX_EVENTS = 1200
MAX_OPTIONS = 24
CANDIDATES = 4  # discards tried by rollouts: the lowest kept deadwood ones
MC_STREAM = 11


@jit
def add_event_nb(events, n, seat, kind, card, flag):
    events[n, 0] = seat
    events[n, 1] = kind
    events[n, 2] = card
    events[n, 3] = flag
    return n + 1


@jit
def from_pile_nb(events, n, seat, card):
    """1 if ``seat`` took ``card`` from the pile earlier (and so still held it)."""
    for i in range(n - 1, -1, -1):
        if events[i, 0] == seat and events[i, 2] == card:
            return 1 if events[i, 1] == EV_TAKE else 0
    return 0


@jit
def first_turn_events_nb(events, n, trace, rows, dealer, upcard, mc_seat):
    """Events of the first turn from its trace rows (passes are implied)."""
    nondealer = 1 - dealer
    for r in range(rows):
        seat = trace[r, TRACE_SEAT]
        if seat < 0:
            continue
        rel = 0 if seat == mc_seat else 1
        source = trace[r, TRACE_SOURCE]
        if upcard >= 0:
            if seat == dealer and source == SOURCE_PILE:
                n = add_event_nb(events, n, 0 if nondealer == mc_seat else 1, EV_PASS, upcard, 1)
            elif seat == nondealer and source != SOURCE_PILE:
                n = add_event_nb(events, n, 0 if nondealer == mc_seat else 1, EV_PASS, upcard, 1)
                n = add_event_nb(events, n, 0 if dealer == mc_seat else 1, EV_PASS, upcard, 1)
        if source == SOURCE_PILE:
            n = add_event_nb(events, n, rel, EV_TAKE, trace[r, TRACE_DRAWN], 1)
        elif source != SOURCE_DEAL:
            n = add_event_nb(events, n, rel, EV_STOCK, -1, 0)
        card = trace[r, TRACE_DISCARD]
        if card >= 0:
            n = add_event_nb(events, n, rel, EV_DISCARD, card, 1 if source == SOURCE_PILE and
                             trace[r, TRACE_DRAWN] == card else 0)
    return n


@jit
def world_nb(hs, branch, rng, branch_rng, me, opp_hand, unseen, key, w, order):
    """Lay out world ``w`` on ``branch``: the position of ``hs``, the opponent holding
    ``opp_hand`` and the stock a shuffle of the other unseen cards."""
    copy_position_nb(hs, branch, rng, branch_rng)
    branch[ST_HAND + 1 - me] = opp_hand
    rest = unseen & ~opp_hand
    k = 0
    while rest != 0:
        c = 0
        low = rest & -rest
        while (low >> c) != 1:
            c += 1
        order[k] = c
        k += 1
        rest &= rest - 1
    branch_rng[2] = stream_key_nb(key, w, 5)
    for i in range(k - 1, 0, -1):
        j = below_nb(branch_rng, 2, i + 1)
        t = order[i]
        order[i] = order[j]
        order[j] = t
    pos = branch[ST_POS]
    for i in range(k):
        if pos + i < 52:
            branch[ST_DECK + pos + i] = order[i]
    seat_streams_nb(branch_rng, key, w)


@jit
def beliefs_nb(hs, me, events, n_ev, rel_events, model_pair, rules, tab, temperature, key,
               hands, logl, logc, base, w, tmp_hands, tmp_logl, tmp_logc, ev_card, unseen_cards,
               belief_hs, belief_rng, stages):
    """Sample the opponent's hand now (weights in ``w``); returns the unseen mask."""
    for i in range(n_ev):
        for j in range(4):
            rel_events[i, j] = events[i, j]
    opp = 1 - me
    held = hs[ST_TAKEN + opp]
    unseen = FULL_DECK & ~hs[ST_HAND + me] & ~hs[ST_PILE_MASK] & ~held
    k = 0
    for c in range(52):
        if (unseen >> c) & 1:
            unseen_cards[k] = c
            k += 1
    dealer = 0 if hs[ST_DEALER] == me else 1
    n_hidden = 10 - popcount_nb(held)
    smc_beliefs_nb(key, rel_events[:n_ev], dealer, hs[ST_UPCARD], hs[ST_KNOCK_LIMIT],
                   unseen_cards[:k], n_hidden, held, model_pair, rules, tab, temperature, 1,
                   stages, hands, logl, logc, base, w, tmp_hands, tmp_logl, tmp_logc, ev_card,
                   belief_hs, belief_rng)
    return unseen


@jit
def pick_world_nb(w, u):
    """Index of the particle at cumulative weight ``u`` in [0, 1)."""
    c = 0.0
    for p in range(w.shape[0]):
        c += w[p]
        if u < c:
            return p
    return w.shape[0] - 1


@jit
def option_value_nb(hs, branch, rng, branch_rng, me, kind, card, knock, kept, hands, w,
                    unseen, exclude, rollouts, key, pair, rules, tab, empty, order, drawn_card):
    """Mean net points (mc seat minus opponent) of one option over ``rollouts`` worlds
    (kind 0: discard ``card``, knocking if ``knock``; 1: take the pile card, 2: draw from
    the stock, each then discarding as the rollout strategy does; then both rollout
    strategies play on)."""
    total = 0.0
    for r in range(rollouts):
        p = pick_world_nb(w, (r + 0.5) / rollouts)
        opp_hand = hands[p]
        if (opp_hand & exclude) != 0:
            # the mc seat drew this card from the stock: swap it for another unseen card
            free = unseen & ~opp_hand & ~exclude
            opp_hand &= ~exclude
            n = popcount_nb(free)
            k = (r * 7 + p) % n
            for c in range(52):
                if (free >> c) & 1:
                    if k == 0:
                        opp_hand |= 1 << c
                        break
                    k -= 1
        world_nb(hs, branch, rng, branch_rng, me, opp_hand, unseen & ~exclude, key, r, order)
        if kind == 0:
            apply_discard_nb(branch, me, card, kept, knock, False, rules)
        else:
            if kind == 1:
                take_pile_top_nb(branch, me)
            else:
                draw_stock_nb(branch, me)
            branch[ST_PLANNED] = 0
            discard_nb(branch, me, pair, rules, tab, branch_rng)
        if branch[ST_ENDING] < 0:
            play_on_nb(branch, 1 - me, pair, rules, tab, branch_rng, empty)
        showdown_nb(branch, rules, tab)
        total += net_points_nb(branch, me)
    return total / rollouts


@jit
def mc_turn_nb(hs, me, pile_allowed, pair, model_pair, rules, tab, rng, rollouts, temperature,
               stages, events, n_ev, scratch_i, scratch_f, branch, branch_rng, belief_hs,
               empty):
    """The mc seat's turn: draw and discard (or knock) by rollouts. Returns the new
    number of events. A negative ``temperature`` is the *oracle* diagnostic (the belief
    replaced by the opponent's true hand, to measure what the belief costs); players
    never use it."""
    n_part = scratch_f.shape[0] // 6
    hands = scratch_i[:n_part]
    tmp_hands = scratch_i[n_part:2 * n_part]
    ev_card = scratch_i[2 * n_part:2 * n_part + MAX_EVENTS]
    unseen_cards = scratch_i[2 * n_part + MAX_EVENTS:2 * n_part + MAX_EVENTS + 52]
    order = scratch_i[2 * n_part + MAX_EVENTS + 52:2 * n_part + MAX_EVENTS + 104]
    rel = scratch_i[2 * n_part + MAX_EVENTS + 104:].reshape(MAX_EVENTS, 4)
    logl = scratch_f[:n_part]
    w = scratch_f[n_part:2 * n_part]
    tmp_logl = scratch_f[2 * n_part:3 * n_part]
    logc = scratch_f[3 * n_part:4 * n_part]
    base = scratch_f[4 * n_part:5 * n_part]
    tmp_logc = scratch_f[5 * n_part:]
    key = stream_key_nb(rng[me], hs[ST_TURNS], MC_STREAM)
    unseen = beliefs_nb(hs, me, events, n_ev, rel, model_pair, rules, tab, abs(temperature),
                        key, hands, logl, logc, base, w, tmp_hands, tmp_logl, tmp_logc, ev_card,
                        unseen_cards, belief_hs, branch_rng, stages)
    if temperature < 0:  # the oracle diagnostic: every guess is the true hand
        for p in range(n_part):
            hands[p] = hs[ST_HAND + 1 - me]
    # The draw.
    take = False
    top = -1
    if pile_allowed and hs[ST_PILE_LEN] > 0:
        top = hs[ST_PILE + hs[ST_PILE_LEN] - 1]
        v_take = option_value_nb(hs, branch, rng, branch_rng, me, 1, -1, False, 0, hands, w,
                                 unseen, 0, rollouts, key, pair, rules, tab, empty, order, -1)
        v_stock = option_value_nb(hs, branch, rng, branch_rng, me, 2, -1, False, 0, hands, w,
                                  unseen, 0, rollouts, key, pair, rules, tab, empty, order, -1)
        take = v_take > v_stock
    hs[ST_PLANNED] = 0
    if take:
        card = take_pile_top_nb(hs, me)
        n_ev = add_event_nb(events, n_ev, 0, EV_TAKE, card, 1)
        exclude = 0
    else:
        flag = 0
        if pile_allowed and hs[ST_PILE_LEN] > 0:
            hs[ST_PASSED + me] |= 1 << top
            flag = 1
        card = draw_stock_nb(hs, me)
        n_ev = add_event_nb(events, n_ev, 0, EV_STOCK, -1, flag)
        exclude = 1 << card
    # The discard: gin or big gin at once; else rollouts over the best candidates.
    hand = hs[ST_HAND + me]
    forbidden = hs[ST_FORBIDDEN]
    dw, best, _, all_melded = best_discard_nb(hand, forbidden, 0, tab, hs, True)
    if all_melded and rules[R_BIG_GIN_BONUS] >= 0:
        apply_discard_nb(hs, me, -1, 0, True, True, rules)
        return n_ev
    if dw == 0:
        apply_discard_nb(hs, me, best, 0, True, False, rules)
        return add_event_nb(events, n_ev, 0, EV_DISCARD, best, 0)
    best_value = -1e18
    choice = best
    choice_knock = False
    choice_kept = dw
    tried = 0
    while tried < CANDIDATES:
        c = -1
        low = NO_DISCARD
        for x in range(52):
            if (hand >> x) & 1 and (forbidden >> x) & 1 == 0 and hs[W_DISCARD + x] < low:
                low = hs[W_DISCARD + x]
                c = x
        if c < 0:
            break
        hs[W_DISCARD + c] = NO_DISCARD
        tried += 1
        for knock in range(2):
            if knock == 1 and low > hs[ST_KNOCK_LIMIT]:
                break
            v = option_value_nb(hs, branch, rng, branch_rng, me, 0, c, knock == 1, low, hands,
                                w, unseen, exclude, rollouts, key, pair, rules, tab, empty,
                                order, card)
            if v > best_value:
                best_value = v
                choice = c
                choice_knock = knock == 1
                choice_kept = low
    flag = from_pile_nb(events, n_ev, 0, choice)
    apply_discard_nb(hs, me, choice, choice_kept, choice_knock, False, rules)
    return add_event_nb(events, n_ev, 0, EV_DISCARD, choice, flag)


@jit
def mc_play_hand_nb(hs, dealer, mc_seat, params, pair, model_pair, rules, tab, rng, hand_id,
                    rollouts, temperature, stages, events, first_trace, scratch_i, scratch_f,
                    branch, branch_rng, belief_hs, empty):
    """Deal the deck in ``hs`` and play the hand, seat ``mc_seat`` by rollouts.

    ``params`` are the rows the phases use: the mc seat's rollout strategy (for the
    upcard offers and the 50th-card rule) and the other seat's own strategy."""
    deal_nb(hs, dealer, rules, hand_id)
    hs[ST_TRACE_ROW] = 0
    seat = first_turn_nb(hs, params, rules, tab, rng, first_trace)
    n_ev = first_turn_events_nb(events, 0, first_trace, min(hs[ST_TRACE_ROW],
                                                           first_trace.shape[0]),
                                hs[ST_DEALER], hs[ST_UPCARD], mc_seat)
    while hs[ST_ENDING] < 0:
        if seat == mc_seat:
            n_ev = mc_turn_nb(hs, seat, True, pair, model_pair, rules, tab, rng, rollouts,
                              temperature, stages, events, n_ev, scratch_i, scratch_f, branch,
                              branch_rng, belief_hs, empty)
        else:
            allowed = hs[ST_PILE_LEN] > 0
            top = hs[ST_PILE + hs[ST_PILE_LEN] - 1] if allowed else -1
            drawn = draw_nb(hs, seat, True, params, rules, tab, rng)
            if hs[ST_SOURCE] == SOURCE_PILE:
                n_ev = add_event_nb(events, n_ev, 1, EV_TAKE, drawn, 1)
            else:
                n_ev = add_event_nb(events, n_ev, 1, EV_STOCK, -1, 1 if top >= 0 else 0)
            discard, _ = discard_nb(hs, seat, params, rules, tab, rng)
            if discard >= 0:
                n_ev = add_event_nb(events, n_ev, 1, EV_DISCARD, discard,
                                    from_pile_nb(events, n_ev, 1, discard))
        seat = 1 - seat
    if (hs[ST_ENDING] == ENDING_DEAD and rules[R_LAST_DISCARD] != 0 and hs[ST_PILE_LEN] > 0
            and hs[ST_TURNS] < MAX_TURNS):
        last_discard_turn_nb(hs, seat, params, rules, tab, empty)


@jit
def mc_hands_nb(seed, deals, dealers, mc_seats, params, pair_rows, model_rows, rules, tab,
                rollouts, temperature, stages, out, hs, rng, events, first_trace, scratch_i,
                scratch_f, branch, branch_rng, belief_hs, empty):
    """Play hand ``i`` on deck ``(seed, deals[i])`` (as :func:`shuffle_deck_nb` deals it)
    with ``dealers[i]`` dealing and seat ``mc_seats[i]`` the mc player; players' streams
    from ``(seed, 2 * deals[i] + mc_seats[i])``.

    ``params[s]`` are the phase rows while seat ``s`` is the mc seat (its rollout
    strategy in row ``s``, the opponent's strategy in the other), ``pair_rows[s]`` the
    rollout rows (its rollout strategy, the opponent modelled), ``model_rows[s]`` the
    belief rows (row 1: the opponent model)."""
    for i in range(deals.shape[0]):
        mc_seat = mc_seats[i]
        shuffle_deck_nb(hs, rng, seed, deals[i])
        seat_streams_nb(rng, seed, 2 * deals[i] + mc_seat)
        mc_play_hand_nb(hs, dealers[i], mc_seat, params[mc_seat], pair_rows[mc_seat],
                        model_rows[mc_seat], rules, tab, rng, i, rollouts, temperature, stages,
                        events, first_trace, scratch_i, scratch_f, branch, branch_rng,
                        belief_hs, empty)
        showdown_nb(hs, rules, tab)
        record_hand_nb(out, i, i, dealers[i], hs)
