package io.sluice.lab.s3;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a client JVM measured over its recorded transfers, as its {@code RESULT} line carries it:
 * the wall-clock seconds from the first start to the last completion, the JVM's CPU seconds over
 * that time, the peaks of {@link MemoryProbe}, the heap after a full collection just before
 * ({@code idle}), sluice's stated bound for all its clients (-1 if the transfer states none), and
 * the highest heap after a forced full collection ({@code checked_live_heap}, -1 if none was forced).
 */
record ClientResult(
        double seconds,
        double cpuSeconds,
        long peakHeapBytes,
        long peakLiveHeapBytes,
        long idleHeapBytes,
        long peakDirectBytes,
        long peakDirectJdkBytes,
        long peakDirectNettyBytes,
        long boundBytes,
        long checkedLiveHeapBytes) {

    static final String PREFIX = "RESULT ";

    String line() {
        return String.format(
                Locale.ROOT,
                PREFIX + "seconds=%.6f cpu_s=%.3f peak_heap=%d peak_live_heap=%d idle_heap=%d "
                        + "peak_direct=%d peak_direct_jdk=%d peak_direct_netty=%d bound=%d checked_live_heap=%d",
                seconds,
                cpuSeconds,
                peakHeapBytes,
                peakLiveHeapBytes,
                idleHeapBytes,
                peakDirectBytes,
                peakDirectJdkBytes,
                peakDirectNettyBytes,
                boundBytes,
                checkedLiveHeapBytes);
    }

    /**
     * The result a {@code RESULT} line carries.
     *
     * @throws IllegalArgumentException if {@code line} is not one, or lacks a figure
     */
    static ClientResult parse(String line) {
        if (line == null || !line.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a result line: " + line);
        }
        Map<String, String> figures = new TreeMap<>();
        for (String pair : line.substring(PREFIX.length()).trim().split(" ")) {
            int equals = pair.indexOf('=');
            if (equals < 1) {
                throw new IllegalArgumentException("not name=value: " + pair + " in " + line);
            }
            figures.put(pair.substring(0, equals), pair.substring(equals + 1));
        }
        try {
            return new ClientResult(
                    Double.parseDouble(figures.get("seconds")),
                    Double.parseDouble(figures.get("cpu_s")),
                    Long.parseLong(figures.get("peak_heap")),
                    Long.parseLong(figures.get("peak_live_heap")),
                    Long.parseLong(figures.get("idle_heap")),
                    Long.parseLong(figures.get("peak_direct")),
                    Long.parseLong(figures.get("peak_direct_jdk")),
                    Long.parseLong(figures.get("peak_direct_netty")),
                    Long.parseLong(figures.get("bound")),
                    Long.parseLong(figures.get("checked_live_heap")));
        } catch (NullPointerException | NumberFormatException e) {
            throw new IllegalArgumentException("a figure is missing or malformed in " + line, e);
        }
    }
}
