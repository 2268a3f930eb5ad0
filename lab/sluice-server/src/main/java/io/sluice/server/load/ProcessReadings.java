package io.sluice.server.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a load harness reads about a server process from outside: RSS, CPU time and write system calls from
 * {@code /proc} (Linux), and its own {@code name=value} figures over HTTP. The process may have died, so no
 * reading throws: a gone process reads as -1, NaN or nothing.
 */
public final class ProcessReadings {

    /** {@code getconf CLK_TCK}, read once; NaN when it could not be run or printed no number. */
    private static final double CLOCK_TICKS = readClockTicks();

    private ProcessReadings() {}

    /** {@code VmRSS} of process {@code pid} in bytes, -1 when it is gone or /proc cannot be read. */
    public static long rssBytes(long pid) {
        return status(pid).getOrDefault("VmRSS", -1L);
    }

    /** {@code VmRSS}, {@code VmHWM} (peak RSS) in bytes and {@code Threads} from {@code /proc/PID/status}. */
    public static Map<String, Long> status(long pid) {
        Map<String, Long> values = new TreeMap<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                String[] parts = line.split("\\s+");
                switch (parts[0]) {
                    case "VmRSS:", "VmHWM:" -> values.put(parts[0].substring(0, 5), Long.parseLong(parts[1]) * 1024);
                    case "Threads:" -> values.put("Threads", Long.parseLong(parts[1]));
                    default -> {}
                }
            }
        } catch (IOException | RuntimeException e) {
            // the process is gone: no values
        }
        return values;
    }

    /** User + system CPU seconds of process {@code pid} so far, NaN when it is gone. */
    public static double cpuSeconds(long pid) {
        CpuTimes times = cpuTimes(pid);
        return times.userSeconds() + times.systemSeconds();
    }

    /** {@code utime} and {@code stime} of {@code /proc/PID/stat} in seconds, NaN when unread. */
    public record CpuTimes(double userSeconds, double systemSeconds) {

        public static final CpuTimes UNREAD = new CpuTimes(Double.NaN, Double.NaN);
    }

    /** User and system CPU seconds of process {@code pid} so far; unread when it is gone. */
    public static CpuTimes cpuTimes(long pid) {
        try {
            return cpuTimes(Files.readString(Path.of("/proc", Long.toString(pid), "stat")), ticksPerSecond());
        } catch (IOException | RuntimeException e) {
            return CpuTimes.UNREAD;
        }
    }

    /** Fields 14 and 15, counted after the command's closing parenthesis (the command may hold spaces). */
    public static CpuTimes cpuTimes(String stat, double ticksPerSecond) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        return new CpuTimes(Long.parseLong(fields[11]) / ticksPerSecond, Long.parseLong(fields[12]) / ticksPerSecond);
    }

    /** Write-family system calls so far ({@code syscw} of {@code /proc/PID/io}), -1 when unread. */
    public static long writeSyscalls(long pid) {
        try {
            return writeSyscalls(Files.readString(Path.of("/proc", Long.toString(pid), "io")));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** {@code syscw} of a {@code /proc/PID/io} text, -1 when it has no such line. */
    public static long writeSyscalls(String io) {
        return io.lines()
                .filter(line -> line.startsWith("syscw:"))
                .mapToLong(
                        line -> Long.parseLong(line.substring("syscw:".length()).trim()))
                .findFirst()
                .orElse(-1);
    }

    /** Ticks per second of {@code /proc/PID/stat}'s times; Linux's {@code USER_HZ}, 100, when getconf failed. */
    public static double ticksPerSecond() {
        return ticksPerSecondAssumed() ? 100.0 : CLOCK_TICKS;
    }

    /** Whether {@link #ticksPerSecond()} is the assumed 100 because {@code getconf CLK_TCK} could not be run. */
    public static boolean ticksPerSecondAssumed() {
        return !(CLOCK_TICKS > 0);
    }

    private static double readClockTicks() {
        try {
            Process getconf = new ProcessBuilder("getconf", "CLK_TCK")
                    .redirectErrorStream(true)
                    .start();
            String printed = new String(getconf.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            return getconf.waitFor() == 0 ? Double.parseDouble(printed) : Double.NaN;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Double.NaN;
        }
    }

    /** The {@code name=value} lines (long values) {@code GET uri} answers; empty when none in {@code timeout}. */
    public static Map<String, Long> keyValues(HttpClient client, URI uri, Duration timeout) {
        Map<String, Long> values = new TreeMap<>();
        try {
            HttpResponse<String> response = client.send(
                    HttpRequest.newBuilder(uri).timeout(timeout).build(), HttpResponse.BodyHandlers.ofString());
            for (String line : response.body().split("\n")) {
                int equals = line.indexOf('=');
                if (equals > 0) {
                    values.put(
                            line.substring(0, equals),
                            Long.parseLong(line.substring(equals + 1).trim()));
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
