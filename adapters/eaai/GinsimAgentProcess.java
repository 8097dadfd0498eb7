package ginrummy;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** One running {@code ginsim agent}: messages in on its stdin, answers from its stdout. */
final class GinsimAgentProcess {
    private final List<String> command;
    private final Process process;
    private final BufferedWriter in;
    private final BufferedReader out;
    WeakReference<GinsimPlayer> owner; // the player whose hand it serves (GinsimPlayer)

    GinsimAgentProcess(List<String> command) {
        this.command = command;
        try {
            process = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the ginsim agent " + command
                    + " (set GINSIM_AGENT to the command, e.g. 'python -m ginsim agent'): "
                    + e.getMessage(), e);
        }
        in = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(),
                StandardCharsets.UTF_8));
        out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
    }

    void send(Map<String, Object> message) {
        try {
            in.write(GinsimJson.write(message));
            in.write('\n');
        } catch (IOException e) {
            throw died(e.getMessage());
        }
    }

    void flush() {
        try {
            in.flush();
        } catch (IOException e) {
            throw died(e.getMessage());
        }
    }

    Map<String, Object> ask(Map<String, Object> message) {
        send(message);
        flush();
        String line;
        try {
            line = out.readLine();
        } catch (IOException e) {
            throw died(e.getMessage());
        }
        if (line == null) {
            throw died("it closed its output");
        }
        return GinsimJson.object(line);
    }

    private IllegalStateException died(String why) {
        String code = process.isAlive() ? "running" : "exit code " + process.exitValue();
        return new IllegalStateException("the ginsim agent " + command + " stopped answering ("
                + why + ", " + code + ")");
    }

    void close() {
        try {
            send(GinsimJson.msg("type", "bye"));
            flush();
            in.close();
        } catch (IOException | IllegalStateException e) {
            // already gone
        }
        try {
            if (!process.waitFor(2, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
        }
    }
}
