package ginrummy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Games between two EAAI player classes in the framework's referee, for ginsim's bridge
 * tests and benchmarks:
 *
 * <pre>java -cp ... ginrummy.GinsimMatch ginrummy.GinsimPlayer ginrummy.SimpleGinRummyPlayer 200 [check]</pre>
 *
 * A fresh pair of players per game, the first class in seat 0 of the even games and seat
 * 1 of the odd ones (the referee picks the starting player at random). With "check" the
 * referee's commentary is read after each game, and a game it ended because a player
 * moved illegally (a discard not held or just taken, an illegal meld, a knock above 10)
 * is counted. Prints one line: {@code games=G wins=W forfeits=F seconds=S agents=A}, W
 * and F for the first class, A the ginsim agent processes GinsimPlayer started.
 */
public final class GinsimMatch {
    private GinsimMatch() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: java -cp ... ginrummy.GinsimMatch CLASS_A CLASS_B GAMES "
                    + "[check]");
            System.exit(2);
        }
        int games = Integer.parseInt(args[2]);
        boolean check = args.length > 3 && args[3].equals("check");
        PrintStream console = System.out;
        int wins = 0;
        int forfeits = 0;
        long start = System.nanoTime();
        for (int i = 0; i < games; i++) {
            GinRummyPlayer a = make(args[0]);
            GinRummyPlayer b = make(args[1]);
            boolean swap = i % 2 == 1;
            GinRummyGame game = swap ? new GinRummyGame(b, a) : new GinRummyGame(a, b);
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            if (check) {
                GinRummyGame.setPlayVerbose(true);
                System.setOut(new PrintStream(log, true, "UTF-8"));
            }
            int winner;
            try {
                winner = game.play();
            } finally {
                System.setOut(console);
                GinRummyGame.setPlayVerbose(false);
            }
            if ((winner == 0) != swap) {
                wins++;
            }
            String text = log.toString(StandardCharsets.UTF_8.name());
            int seatA = swap ? 1 : 0;
            for (String line : text.split("\n")) {
                if (line.contains("forfeits")) {
                    console.println("game " + i + ": " + line.trim() + " (" + args[0]
                            + " in seat " + seatA + ")");
                    if (line.startsWith("Player " + seatA + " ")) {
                        forfeits++;
                    }
                }
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        console.printf("games=%d wins=%d forfeits=%d seconds=%.2f agents=%d%n", games, wins,
                forfeits, seconds, GinsimPlayer.agentProcesses());
    }

    private static GinRummyPlayer make(String name) throws ReflectiveOperationException {
        return (GinRummyPlayer) Class.forName(name).getDeclaredConstructor().newInstance();
    }
}
