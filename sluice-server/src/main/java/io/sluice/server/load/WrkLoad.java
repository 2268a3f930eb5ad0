package io.sluice.server.load;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Closed-loop traffic from {@code wrk} (Debian's package; one thread, on the load generator's CPU,
 * which the child process inherits from the harness's {@code taskset}).
 *
 * <p>Not the JDK {@code HttpClient}: at A2's 512 connections it needs the whole of the generator's
 * core, so the step would measure the generator; wrk runs the same loop on a fraction of a core
 * (figures: docs/results/2026-11-23-server/README.md, "Generator, warm-up and B's ramp"). The Java
 * generator remains for scenario B's open-model traffic and where wrk is not installed.
 *
 * <p>What wrk counts: latency from a request's send to its response's end on its connection, the
 * same as {@link HttpLoad#closed}. A request wrk times out ({@code --timeout}) is counted as a
 * timeout and is not in its histogram (wrk keeps no sample for it), so the gates that require no
 * timeouts see it. wrk reports bytes with headers: the body bytes are counted as {@code bodyBytes}
 * per 2xx answer, and a run whose total bytes cannot hold that many bodies counts the shortfall as
 * errors (a server sending short bodies cannot pass).
 */
record WrkLoad(Path wrk) {

    /** The line our Lua {@code done} hook prints, then its eleven numbers. */
    static final String MARK = "SLUICE-WRK";
    private static final String DONE_HOOK = """
            done = function(summary, latency, requests)
              local e = summary.errors
              io.write(string.format("%s %%.0f %%.0f %%.0f %%.0f %%.0f %%.0f %%.0f %%.0f %%.0f %%.0f %%.0f\\n",
                summary.requests, summary.bytes, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
                latency:percentile(50), latency:percentile(99), latency:percentile(99.9)))
            end
            """.formatted(MARK);

    /** wrk from the {@code PATH}, if it is there. */
    static Optional<WrkLoad> find() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String directory : path.split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(directory, "wrk");
            if (Files.isExecutable(candidate)) {
                return Optional.of(new WrkLoad(candidate));
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return "wrk (" + wrk + ", one thread)";
    }

    /** Keeps {@code connections} GETs of {@code uri} in flight for {@code duration}. */
    Traffic closed(URI uri, int connections, Duration duration, Duration timeout, long bodyBytes)
            throws IOException, InterruptedException {
        Path script = Files.createTempFile("sluice-wrk-", ".lua");
        try {
            Files.writeString(script, DONE_HOOK);
            List<String> command = new ArrayList<>(List.of(wrk.toString(), "-t1", "-c" + connections,
                    "-d" + Math.max(1, duration.toSeconds()) + "s", "--timeout", Math.max(1, timeout.toSeconds()) + "s",
                    "-s", script.toString(), uri.toString()));
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output;
            try (InputStream in = process.getInputStream()) {
                output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            if (!process.waitFor(duration.toSeconds() + 60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("wrk did not end within 60 s of its duration");
            }
            if (process.exitValue() != 0) {
                throw new IOException("wrk exited with " + process.exitValue() + ": " + output);
            }
            return parse(output, bodyBytes);
        } finally {
            Files.deleteIfExists(script);
        }
    }

    /** Reads the {@link #MARK} line of wrk's output (latencies in microseconds). */
    static Traffic parse(String output, long bodyBytes) {
        for (String line : output.split("\n")) {
            if (!line.startsWith(MARK + " ")) {
                continue;
            }
            String[] field = line.trim().split("\\s+");
            if (field.length != 12) {
                throw new IllegalArgumentException("wrk summary line has " + (field.length - 1)
                        + " numbers, expected 11: " + line);
            }
            long requests = Long.parseLong(field[1]);
            long bytes = Long.parseLong(field[2]);
            long connect = Long.parseLong(field[4]);
            long read = Long.parseLong(field[5]);
            long write = Long.parseLong(field[6]);
            long status = Long.parseLong(field[7]);
            long timeouts = Long.parseLong(field[8]);
            long answered = Math.max(0, requests - status);
            long ok = bodyBytes <= 0 ? answered : Math.min(answered, bytes / bodyBytes);
            long shortBodies = answered - ok;
            double p50 = Long.parseLong(field[9]) / 1000.0;
            double p99 = Long.parseLong(field[10]) / 1000.0;
            double p999 = Long.parseLong(field[11]) / 1000.0;
            boolean none = requests == 0;
            return new Traffic(ok, ok * bodyBytes, connect + read + write + status + shortBodies, timeouts,
                    none ? Double.NaN : p50, none ? Double.NaN : p99, none ? Double.NaN : p999);
        }
        throw new IllegalArgumentException("no " + MARK + " line in wrk's output: " + output);
    }
}
