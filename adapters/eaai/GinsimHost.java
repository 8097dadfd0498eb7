package ginrummy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Seats any EAAI {@link GinRummyPlayer} behind ginsim's agent protocol (docs/agents.md):
 * JSON messages from the referee on stdin, one JSON answer per "decide" on stdout.
 *
 * <pre>java -cp FRAMEWORK:BRIDGE ginrummy.GinsimHost ginrummy.SimpleGinRummyPlayer</pre>
 *
 * Each game ("start") gets a new instance of the player class, as the framework's own
 * match runner does; each hand calls the player's methods in the order the framework's
 * referee calls them: startGame, the face-up offers, reportDraw, getDiscard,
 * reportDiscard, then getFinalMelds to learn whether it knocks, and at the showdown
 * reportFinalMelds, reportLayoff, reportFinalHand and reportScores.
 */
public final class GinsimHost {
    private final Class<?> playerClass;
    private final PrintStream out;
    private GinRummyPlayer player;
    private int seat;
    private int starter;
    private Card top;
    private Card ownDiscard;

    private GinsimHost(Class<?> playerClass, PrintStream out) {
        this.playerClass = playerClass;
        this.out = out;
    }

    /** Serve the protocol until "bye" or the end of stdin. */
    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: java -cp ... ginrummy.GinsimHost PLAYER_CLASS "
                    + "(e.g. ginrummy.SimpleGinRummyPlayer)");
            System.exit(2);
        }
        Class<?> cls;
        try {
            cls = Class.forName(args[0]);
        } catch (ClassNotFoundException e) {
            System.err.println("GinsimHost: no class " + args[0] + " on the class path");
            System.exit(2);
            return;
        }
        if (!GinRummyPlayer.class.isAssignableFrom(cls)) {
            System.err.println("GinsimHost: " + args[0] + " does not implement "
                    + "ginrummy.GinRummyPlayer");
            System.exit(2);
        }
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        GinsimHost host = new GinsimHost(cls, out);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in,
                StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.trim().isEmpty()) {
                continue;
            }
            if (!host.handle(GinsimJson.object(line))) {
                break;
            }
        }
        out.flush();
    }

    /** One referee message; false after "bye". */
    private boolean handle(Map<String, Object> msg) throws Exception {
        String type = (String) msg.get("type");
        switch (type) {
            case "start":
                player = newPlayer();
                seat = num(msg.get("seat"));
                return true;
            case "hand":
                startHand(msg);
                return true;
            case "event":
                event(msg);
                return true;
            case "decide":
                out.println(GinsimJson.write(decide(msg)));
                out.flush();
                return true;
            case "showdown":
                showdown(msg);
                return true;
            case "bye":
                return false;
            default: // game_over and anything newer: nothing to tell the player
                return true;
        }
    }

    private void startHand(Map<String, Object> msg) {
        if (player == null) { // a referee that sends no "start": one game, this seat
            seat = num(msg.get("seat"));
            player = newPlayer();
        }
        starter = 1 - num(msg.get("dealer"));
        List<Card> cards = cards(msg.get("cards"));
        player.startGame(seat, starter, cards.toArray(new Card[0]));
        top = msg.get("upcard") == null ? null : card(msg.get("upcard"));
        ownDiscard = null;
    }

    private GinRummyPlayer newPlayer() {
        try {
            return (GinRummyPlayer) playerClass.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot make a " + playerClass.getName(), e);
        }
    }

    private void event(Map<String, Object> msg) {
        int who = num(msg.get("seat"));
        String action = (String) msg.get("action");
        Card card = msg.get("card") == null ? null : card(msg.get("card"));
        switch (action) {
            case "take":
            case "pile":
                player.reportDraw(who, card == null ? top : card);
                top = null;
                break;
            case "stock":
                player.reportDraw(who, who == seat ? card : null);
                break;
            case "discard":
            case "knock":
                if (!(who == seat && card.equals(ownDiscard))) {
                    player.reportDiscard(who, card);
                }
                ownDiscard = null;
                top = card;
                break;
            default: // "pass": the framework does not report a declined offer
                break;
        }
    }

    private Map<String, Object> decide(Map<String, Object> msg) {
        List<String> legal = strings(msg.get("legal"));
        String phase = (String) msg.get("phase");
        if (phase.equals("offer") || (legal.contains("pile") && legal.contains("stock"))) {
            boolean take = top != null && player.willDrawFaceUpCard(top);
            if (phase.equals("offer")) {
                return GinsimJson.msg("action", take ? "take" : "pass");
            }
            return GinsimJson.msg("action", take ? "pile" : "stock");
        }
        if (legal.size() == 1 && !legal.get(0).contains(" ")) { // a forced draw or pass
            return GinsimJson.msg("action", legal.get(0));
        }
        Card discard = player.getDiscard();
        player.reportDiscard(seat, discard);
        ownDiscard = discard;
        ArrayList<ArrayList<Card>> melds = player.getFinalMelds();
        if (melds == null) {
            return GinsimJson.msg("action", "discard", "card", discard == null ? null
                    : discard.toString());
        }
        List<Object> laid = new ArrayList<>();
        for (ArrayList<Card> meld : melds) {
            List<Object> names = new ArrayList<>();
            for (Card c : meld) {
                names.add(c.toString());
            }
            laid.add(names);
        }
        return GinsimJson.msg("action", "knock", "card", discard.toString(), "melds", laid);
    }

    @SuppressWarnings("unchecked")
    private void showdown(Map<String, Object> msg) {
        Object knockerValue = msg.get("knocker");
        List<Object> hands = (List<Object>) msg.get("hands");
        if (knockerValue != null && !"dead".equals(msg.get("outcome"))) {
            int knocker = num(knockerValue);
            ArrayList<ArrayList<Card>> laid = meldLists(msg.get("melds"));
            player.reportFinalMelds(knocker, laid);
            if (hands != null) {
                ArrayList<ArrayList<Card>> defender = bestMelds(cards(hands.get(1 - knocker)));
                player.reportFinalMelds(1 - knocker, defender);
            }
            ArrayList<ArrayList<Card>> layoffs = meldLists(msg.get("layoffs"));
            for (int m = 0; m < layoffs.size() && m < laid.size(); m++) {
                for (Card card : layoffs.get(m)) {
                    player.reportLayoff(1 - knocker, card, new ArrayList<>(laid.get(m)));
                    laid.get(m).add(card);
                }
            }
        }
        if (hands != null) {
            for (int p = 0; p < 2; p++) {
                player.reportFinalHand(p, cards(hands.get(p)));
            }
        }
        List<Object> scores = (List<Object>) msg.get("scores");
        if (scores != null) {
            player.reportScores(new int[] {num(scores.get(0)), num(scores.get(1))});
        }
    }

    private static ArrayList<ArrayList<Card>> bestMelds(ArrayList<Card> hand) {
        ArrayList<ArrayList<ArrayList<Card>>> sets = GinRummyUtil.cardsToBestMeldSets(hand);
        return sets.isEmpty() ? new ArrayList<>() : sets.get(0);
    }

    @SuppressWarnings("unchecked")
    private static ArrayList<ArrayList<Card>> meldLists(Object value) {
        ArrayList<ArrayList<Card>> out = new ArrayList<>();
        if (value instanceof List) {
            for (Object meld : (List<Object>) value) {
                out.add(cards(meld));
            }
        }
        return out;
    }

    static int num(Object value) {
        return ((Number) value).intValue();
    }

    static Card card(Object text) {
        String name = ((String) text).toUpperCase().replace("10", "T");
        Card card = Card.strCardMap.get(name);
        if (card == null) {
            throw new IllegalArgumentException("not a card: " + text);
        }
        return card;
    }

    @SuppressWarnings("unchecked")
    static ArrayList<Card> cards(Object list) {
        ArrayList<Card> out = new ArrayList<>();
        for (Object item : (List<Object>) list) {
            out.add(card(item));
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    static List<String> strings(Object list) {
        List<String> out = new ArrayList<>();
        for (Object item : (List<Object>) list) {
            out.add((String) item);
        }
        return out;
    }
}
