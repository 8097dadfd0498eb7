package ginrummy;

import java.lang.ref.WeakReference;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * An EAAI {@link GinRummyPlayer} that plays a ginsim strategy: it runs {@code ginsim agent}
 * as a subprocess and turns the referee's calls into ginsim's agent protocol
 * (docs/agents.md), one JSON message per line.
 *
 * <p>The strategy spec comes from the environment variable {@code GINSIM_STRATEGY}
 * (default {@link #DEFAULT_STRATEGY}), the command from {@code GINSIM_AGENT} (default
 * {@code ginsim agent}); the rules are the framework's, ginsim's {@code eaai} preset. One
 * agent process serves many games: a player takes an idle one when a hand starts and
 * gives it back when the hand is scored, so a match of a thousand games starts only as
 * many processes as players play at once.
 *
 * <p>The referee's call order differs from ginsim's messages in three places, which this
 * class bridges: the hand is announced before the upcard is turned (the "hand" message
 * waits for the first call that shows the upcard); a declined face-up offer is not
 * reported to the other player (it is inferred from the next call); and a knock is
 * learnt after the discard, from getFinalMelds / reportFinalMelds (the opponent's discard
 * is held back until the next call says whether it was a knock).
 */
public class GinsimPlayer implements GinRummyPlayer {
    /** The strategy played when GINSIM_STRATEGY is not set: the strongest heuristic. */
    public static final String DEFAULT_STRATEGY = "expert";
    /** The command run when GINSIM_AGENT is not set. */
    public static final String DEFAULT_AGENT = "ginsim agent";
    /** ginsim's rules preset for this framework's referee. */
    public static final String RULES = "eaai";
    private static final int STOCK_AT_DEAL = 31;
    private static final int ANSWER_MS = 60000;
    private static final Deque<GinsimAgentProcess> IDLE = new ArrayDeque<>();
    private static final List<GinsimAgentProcess> ALL = new ArrayList<>();
    private static int gamesStarted;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(GinsimPlayer::closeAll));
    }

    private GinsimAgentProcess agent;
    private boolean gameOver = true;
    private int game;
    private int hand;
    private int me;
    private int starter;
    private ArrayList<Card> cards = new ArrayList<>();
    private boolean handSent;
    private int offerStage; // 0: the starter's offer, 1: the other's, 2: offers done
    private boolean takingOffer;
    private boolean drawingPile;
    private Card pileDrawn;
    private Card pendingOpponentDiscard;
    private boolean knockChosen;
    private List<Object> knockMelds;
    private int knocker;
    private int stockLeft;
    private int[] scores = new int[2];
    private ArrayList<ArrayList<Card>> knockerMelds = new ArrayList<>();
    private final List<Object> layoffs = new ArrayList<>();
    private final List<Object> finalHands = new ArrayList<>(Arrays.asList(null, null));

    @Override
    public void startGame(int playerNum, int startingPlayerNum, Card[] dealt) {
        if (gameOver) {
            synchronized (GinsimPlayer.class) {
                game = gamesStarted++;
            }
            gameOver = false;
            hand = 0;
            scores = new int[2];
        }
        if (agent == null) { // a process per hand: one left by a game cut short is reused
            agent = acquire(this);
            agent.send(GinsimJson.msg("type", "start", "protocol", 1, "rules", RULES,
                    "seat", playerNum, "game", game));
        }
        me = playerNum;
        starter = startingPlayerNum;
        cards = new ArrayList<>(Arrays.asList(dealt));
        handSent = false;
        offerStage = 0;
        takingOffer = false;
        drawingPile = false;
        pileDrawn = null;
        pendingOpponentDiscard = null;
        knockChosen = false;
        knockMelds = null;
        knocker = -1;
        stockLeft = STOCK_AT_DEAL;
        knockerMelds = new ArrayList<>();
        layoffs.clear();
        finalHands.set(0, null);
        finalHands.set(1, null);
    }

    @Override
    public boolean willDrawFaceUpCard(Card card) {
        flushOpponentDiscard();
        if (offerStage < 2) {
            sendHand(card);
            if (offerStage == 0 && starter != me) { // the starter declined it
                event(starter, "pass", null);
                offerStage = 1;
            }
            boolean take = "take".equals(decide("offer", Arrays.asList("take", "pass")));
            if (take) {
                takingOffer = true;
            } else {
                event(me, "pass", null);
                offerStage++;
            }
            return take;
        }
        drawingPile = "pile".equals(decide("draw", Arrays.asList("stock", "pile")));
        return drawingPile;
    }

    @Override
    public void reportDraw(int playerNum, Card drawnCard) {
        sendHand(drawnCard); // the other player took the upcard before this one's offer
        flushOpponentDiscard();
        if (playerNum != me) {
            if (offerStage < 2) {
                event(playerNum, "take", drawnCard);
            } else if (drawnCard == null) {
                event(playerNum, "stock", null);
                stockLeft--;
            } else {
                event(playerNum, "pile", drawnCard);
            }
            offerStage = 2;
            return;
        }
        if (offerStage == 1 && starter == me && !takingOffer) { // both declined the upcard
            event(1 - me, "pass", null);
            offerStage = 2;
            decide("draw", Arrays.asList("stock"));
        }
        if (takingOffer) {
            event(me, "take", drawnCard);
            pileDrawn = drawnCard;
        } else if (drawingPile) {
            event(me, "pile", drawnCard);
            pileDrawn = drawnCard;
        } else {
            event(me, "stock", drawnCard);
            stockLeft--;
            pileDrawn = null;
        }
        takingOffer = false;
        drawingPile = false;
        offerStage = 2;
        cards.add(drawnCard);
    }

    @Override
    public Card getDiscard() {
        List<String> legal = new ArrayList<>();
        List<String> knocks = new ArrayList<>();
        for (Card card : cards) {
            if (card.equals(pileDrawn)) {
                continue;
            }
            legal.add("discard " + card);
            ArrayList<Card> kept = new ArrayList<>(cards);
            kept.remove(card);
            if (deadwood(kept) <= GinRummyUtil.MAX_DEADWOOD) {
                knocks.add("knock " + card);
            }
        }
        legal.addAll(knocks);
        Map<String, Object> answer = ask("discard", legal);
        String action = (String) answer.get("action");
        String text = action + " " + answer.get("card");
        if (!legal.contains(text)) {
            throw new IllegalStateException("ginsim agent answered " + GinsimJson.write(answer)
                    + ", which is not among the legal " + legal);
        }
        knockChosen = action.equals("knock");
        Object melds = answer.get("melds");
        knockMelds = melds instanceof List ? asList(melds) : null;
        return GinsimHost.card(answer.get("card"));
    }

    @Override
    public void reportDiscard(int playerNum, Card discardedCard) {
        if (playerNum == me) {
            cards.remove(discardedCard);
            event(me, knockChosen ? "knock" : "discard", discardedCard);
            pileDrawn = null;
        } else {
            flushOpponentDiscard();
            pendingOpponentDiscard = discardedCard;
        }
    }

    @Override
    public ArrayList<ArrayList<Card>> getFinalMelds() {
        if (knocker < 0 && knockChosen) {
            knocker = me;
            ArrayList<ArrayList<Card>> melds = knockMelds == null ? bestMelds(cards)
                    : meldLists(knockMelds);
            knockerMelds = copy(melds);
            return melds;
        }
        if (knocker < 0 || knocker == me) {
            return null;
        }
        return bestMelds(cards); // the defender lays its best melds; the referee lays off
    }

    @Override
    public void reportFinalMelds(int playerNum, ArrayList<ArrayList<Card>> melds) {
        if (playerNum != me && knocker < 0) {
            knocker = playerNum;
            knockerMelds = copy(melds);
            if (pendingOpponentDiscard != null) {
                event(playerNum, "knock", pendingOpponentDiscard);
                pendingOpponentDiscard = null;
            }
        }
    }

    @Override
    public void reportScores(int[] newScores) {
        flushOpponentDiscard();
        int[] points = {newScores[0] - scores[0], newScores[1] - scores[1]};
        String outcome = "dead";
        int[] deadwood = {0, 0};
        if (knocker >= 0) {
            int k = knockerDeadwood();
            int winner = points[knocker] > 0 ? knocker : 1 - knocker;
            int won = points[winner];
            outcome = winner != knocker ? "undercut" : (k == 0 ? "gin" : "knock");
            int d = outcome.equals("gin") ? won - GinRummyUtil.GIN_BONUS
                    : outcome.equals("knock") ? won + k : k + GinRummyUtil.UNDERCUT_BONUS - won;
            deadwood[knocker] = k;
            deadwood[1 - knocker] = d;
        }
        List<Object> melds = new ArrayList<>();
        for (ArrayList<Card> meld : knockerMelds) {
            melds.add(names(meld));
        }
        agent.send(GinsimJson.msg("type", "showdown", "outcome", outcome, "knocker",
                knocker < 0 ? null : knocker, "hands", new ArrayList<>(finalHands),
                "melds", melds, "layoffs", new ArrayList<>(layoffs), "deadwood", deadwood,
                "points", points, "scores", newScores.clone()));
        scores = newScores.clone();
        hand++;
        if (Math.max(scores[0], scores[1]) >= GinRummyUtil.GOAL_SCORE) {
            int winner = scores[0] >= GinRummyUtil.GOAL_SCORE ? 0 : 1;
            agent.send(GinsimJson.msg("type", "game_over", "scores", scores.clone(),
                    "winner", winner));
            gameOver = true;
        }
        agent.flush();
        release(agent);
        agent = null;
    }

    @Override
    public void reportLayoff(int playerNum, Card layoffCard, ArrayList<Card> opponentMeld) {
        layoffs.add(layoffCard.toString());
    }

    @Override
    public void reportFinalHand(int playerNum, ArrayList<Card> finalHand) {
        flushOpponentDiscard(); // a dead hand: the last discard was no knock
        finalHands.set(playerNum, names(finalHand));
    }

    private int knockerDeadwood() {
        @SuppressWarnings("unchecked")
        List<Object> held = (List<Object>) finalHands.get(knocker);
        ArrayList<Card> hand = held == null ? new ArrayList<>() : GinsimHost.cards(held);
        return GinRummyUtil.getDeadwoodPoints(knockerMelds, hand);
    }

    private void sendHand(Card upcard) {
        if (handSent) {
            return;
        }
        handSent = true;
        agent.send(GinsimJson.msg("type", "hand", "game", game, "hand", hand, "seat", me,
                "dealer", 1 - starter, "cards", names(cards), "upcard",
                upcard == null ? null : upcard.toString(), "knock_limit",
                GinRummyUtil.MAX_DEADWOOD, "scores", scores.clone(), "seed", null));
    }

    private void flushOpponentDiscard() {
        if (pendingOpponentDiscard != null) {
            event(1 - me, "discard", pendingOpponentDiscard);
            pendingOpponentDiscard = null;
        }
    }

    private void event(int seat, String action, Card card) {
        boolean hidden = action.equals("stock") && seat != me;
        agent.send(GinsimJson.msg("type", "event", "seat", seat, "action", action, "card",
                card == null || hidden ? null : card.toString()));
    }

    private String decide(String phase, List<String> legal) {
        Map<String, Object> answer = ask(phase, legal);
        String action = (String) answer.get("action");
        if (!legal.contains(action)) {
            throw new IllegalStateException("ginsim agent answered " + GinsimJson.write(answer)
                    + ", which is not among the legal " + legal);
        }
        return action;
    }

    private Map<String, Object> ask(String phase, List<String> legal) {
        return agent.ask(GinsimJson.msg("type", "decide", "phase", phase, "legal", legal,
                "stock_left", stockLeft, "timeout_ms", ANSWER_MS));
    }

    private static int deadwood(ArrayList<Card> hand) {
        ArrayList<ArrayList<ArrayList<Card>>> sets = GinRummyUtil.cardsToBestMeldSets(hand);
        return sets.isEmpty() ? GinRummyUtil.getDeadwoodPoints(hand)
                : GinRummyUtil.getDeadwoodPoints(sets.get(0), hand);
    }

    private static ArrayList<ArrayList<Card>> bestMelds(ArrayList<Card> hand) {
        ArrayList<ArrayList<ArrayList<Card>>> sets = GinRummyUtil.cardsToBestMeldSets(hand);
        return sets.isEmpty() ? new ArrayList<>() : copy(sets.get(0));
    }

    private static ArrayList<ArrayList<Card>> copy(ArrayList<ArrayList<Card>> melds) {
        ArrayList<ArrayList<Card>> out = new ArrayList<>();
        for (ArrayList<Card> meld : melds) {
            out.add(new ArrayList<>(meld));
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> asList(Object value) {
        return (List<Object>) value;
    }

    private static ArrayList<ArrayList<Card>> meldLists(List<Object> melds) {
        ArrayList<ArrayList<Card>> out = new ArrayList<>();
        for (Object meld : melds) {
            out.add(GinsimHost.cards(meld));
        }
        return out;
    }

    private static List<Object> names(List<Card> cards) {
        List<Object> out = new ArrayList<>();
        for (Card card : cards) {
            out.add(card.toString());
        }
        return out;
    }

    /** How many agent processes this JVM has started (a leak check for tests). */
    public static synchronized int agentProcesses() {
        return ALL.size();
    }

    /**
     * An idle agent process for {@code player}'s hand: one given back, or one whose player
     * is gone (a referee that ends a game early, after an illegal move, drops its players
     * mid-hand), or a new one.
     */
    private static synchronized GinsimAgentProcess acquire(GinsimPlayer player) {
        GinsimAgentProcess chosen = IDLE.pollFirst();
        if (chosen == null) {
            chosen = orphan();
        }
        if (chosen == null && ALL.size() >= 2) {
            System.gc(); // all busy: clear the references of players gone mid-hand
            chosen = orphan();
        }
        if (chosen == null) {
            chosen = new GinsimAgentProcess(command());
            ALL.add(chosen);
        }
        chosen.owner = new WeakReference<>(player);
        return chosen;
    }

    private static GinsimAgentProcess orphan() {
        for (GinsimAgentProcess process : ALL) {
            if (process.owner != null && process.owner.get() == null) {
                return process;
            }
        }
        return null;
    }

    private static synchronized void release(GinsimAgentProcess process) {
        process.owner = null;
        IDLE.addFirst(process);
    }

    private static synchronized void closeAll() {
        for (GinsimAgentProcess process : ALL) {
            process.close();
        }
        ALL.clear();
        IDLE.clear();
    }

    /** The agent command: GINSIM_AGENT (words split at spaces), then the strategy and rules. */
    static List<String> command() {
        String agent = System.getenv().getOrDefault("GINSIM_AGENT", DEFAULT_AGENT).trim();
        String strategy = System.getenv().getOrDefault("GINSIM_STRATEGY", DEFAULT_STRATEGY);
        List<String> out = new ArrayList<>(Arrays.asList(agent.split("\\s+")));
        out.addAll(Arrays.asList("--strategy", strategy.trim(), "--rules", RULES));
        return out;
    }
}
