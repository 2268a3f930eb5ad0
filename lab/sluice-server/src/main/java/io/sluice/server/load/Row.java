package io.sluice.server.load;

import io.sluice.lab.Load;
import io.sluice.server.Lane;

import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One measured line of a table: a scenario step on one lane. Peaks are over the loaded window; heapAfterGcMiB
 * is the highest heap after a GC pause in it (an upper bound on the live set); the per-GiB figures are per GiB
 * of body the whole step moved, both ways; {@code load} leaves the server's and harness's CPU out of
 * {@code othersBusy}; {@code drain} is B's, or null. NaN: not measured.
 */
record Row(
        String scenario,
        String step,
        Lane lane,
        double requestsPerSecond,
        double mibPerSecond,
        double p50Millis,
        double p99Millis,
        double p999Millis,
        long timeouts,
        long errors,
        double idleRssMiB,
        double peakRssMiB,
        double heapPeakShare,
        double heapAfterGcMiB,
        double directPeakMiB,
        double sendQueuePeakMiB,
        long threads,
        double cpuSeconds,
        double cpuSecondsPerGiB,
        double heapAllocatedMiBPerGiB,
        Load load,
        Drain drain,
        String note) {

    static String header() {
        return "| scenario | step | lane | req/s | MiB/s | p50 ms | p99 ms | p99.9 ms | timeouts | errors "
                + "| idle RSS MiB | peak RSS MiB | peak heap % | heap after GC MiB | peak direct MiB "
                + "| peak send-queue MiB | threads | CPU s | CPU s/GiB | heap alloc MiB/GiB | note |\n"
                + "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|";
    }

    String markdown() {
        return cells(
                scenario,
                step,
                lane.flag(),
                number(requestsPerSecond, 0),
                number(mibPerSecond, 1),
                number(p50Millis, 1),
                number(p99Millis, 1),
                number(p999Millis, 1),
                timeouts,
                errors,
                number(idleRssMiB, 0),
                number(peakRssMiB, 0),
                number(heapPeakShare * 100, 0),
                number(heapAfterGcMiB, 0),
                number(directPeakMiB, 1),
                number(sendQueuePeakMiB, 1),
                threads,
                number(cpuSeconds, 1),
                number(cpuSecondsPerGiB, 1),
                number(heapAllocatedMiBPerGiB, 0),
                note);
    }

    /** One Markdown table line: {@code | a | b | ... |}. */
    static String cells(Object... cells) {
        return Stream.of(cells).map(String::valueOf).collect(Collectors.joining(" | ", "| ", " |"));
    }

    /** A figure with {@code decimals} places, or n/a when it was not measured (NaN). */
    static String number(double value, int decimals) {
        return Double.isNaN(value) || Double.isInfinite(value)
                ? "n/a"
                : String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}
