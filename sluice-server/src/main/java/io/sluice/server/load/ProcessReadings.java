package io.sluice.server.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a load harness reads about a server process from outside: its resident memory and its CPU
 * time in {@code /proc} (Linux), and the {@code name=value} lines of its own figures over HTTP.
 * Every reading is of another process that may have died, so none throws: a gone process reads as
 * -1, NaN or nothing.
 */
public final class ProcessReadings {

    /** Clock ticks per second of {@code /proc/PID/stat}'s times ({@code USER_HZ}, 100 on Linux). */
    private static final double TICKS_PER_SECOND = 100.0;

    private ProcessReadings() {
    }

    /** {@code VmRSS} of process {@code pid} in bytes, -1 when it is gone or /proc cannot be read. */
    public static long rssBytes(long pid) {
        return status(pid).getOrDefault("VmRSS", -1L);
    }

    /**
     * {@code VmRSS}, {@code VmHWM} (peak RSS), in bytes, and {@code Threads} of process {@code pid}
     * from {@code /proc/PID/status}; empty when it is gone.
     */
    public static Map<String, Long> status(long pid) {
        Map<String, Long> values = new TreeMap<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                String[] parts = line.split("\\s+");
                switch (parts[0]) {
                    case "VmRSS:", "VmHWM:" -> values.put(parts[0].substring(0, 5), Long.parseLong(parts[1]) * 1024);
                    case "Threads:" -> values.put("Threads", Long.parseLong(parts[1]));
                    default -> { } // every other line
                }
            }
        } catch (IOException | RuntimeException e) {
            // the process is gone: no values
        }
        return values;
    }

    /** User + system CPU seconds of process {@code pid} so far, NaN when it is gone. */
    public static double cpuSeconds(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /**
     * The {@code name=value} lines (values are longs) that {@code GET uri} answers, such as a
     * server's {@code /metrics}; empty when it does not answer in {@code timeout} (dead or saturated).
     */
    public static Map<String, Long> keyValues(HttpClient client, URI uri, Duration timeout) {
        Map<String, Long> values = new TreeMap<>();
        try {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri).timeout(timeout).build(),
                    HttpResponse.BodyHandlers.ofString());
            for (String line : response.body().split("\n")) {
                int equals = line.indexOf('=');
                if (equals > 0) {
                    values.put(line.substring(0, equals), Long.parseLong(line.substring(equals + 1).trim()));
                }
            }
        } catch (IOException | RuntimeException e) {
            // dead or saturated: no values
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return values;
    }
}
