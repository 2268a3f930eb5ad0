package io.sluice.server.load;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Closed-loop traffic from {@code wrk} (one thread), far lighter than the JDK {@code HttpClient}
 * (lab/results/2026-11-23-server/README.md); latency as {@link HttpLoad#closed} counts it. wrk's timeouts are
 * counted as timeouts; its bytes include headers, so {@code bodyBytes} count per 2xx answer and a total that
 * cannot hold that many bodies counts the shortfall as errors.
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

    static Optional<WrkLoad> find() {
        return Optional.ofNullable(System.getenv("PATH")).stream()
                .flatMap(path -> Arrays.stream(path.split(File.pathSeparator)))
                .map(directory -> Path.of(directory, "wrk"))
                .filter(Files::isExecutable)
                .findFirst()
                .map(WrkLoad::new);
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
            Process process = new ProcessBuilder(
                            wrk.toString(),
                            "-t1",
                            "-c" + connections,
                            "-d" + Math.max(1, duration.toSeconds()) + "s",
                            "--timeout",
                            Math.max(1, timeout.toSeconds()) + "s",
                            "-s",
                            script.toString(),
                            uri.toString())
                    .redirectErrorStream(true)
                    .start();
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
                throw new IllegalArgumentException(
                        "wrk summary line has " + (field.length - 1) + " numbers, expected 11: " + line);
            }
            // requests, bytes, duration, then errors: connect, read, write, status, timeout; then p50, p99, p99.9 in us
            long[] n = Arrays.stream(field).skip(1).mapToLong(Long::parseLong).toArray();
            long requests = n[0];
            long socketErrors = n[3] + n[4] + n[5];
            long statusErrors = n[6];
            long answered = Math.max(0, requests - statusErrors);
            long ok = bodyBytes <= 0 ? answered : Math.min(answered, n[1] / bodyBytes);
            double toMillis = requests == 0 ? Double.NaN : 1 / 1000.0; // no requests: no latencies
            return new Traffic(
                    ok,
                    ok * bodyBytes,
                    socketErrors + statusErrors + answered - ok,
                    n[7],
                    n[8] * toMillis,
                    n[9] * toMillis,
                    n[10] * toMillis);
        }
        throw new IllegalArgumentException("no " + MARK + " line in wrk's output: " + output);
    }
}
