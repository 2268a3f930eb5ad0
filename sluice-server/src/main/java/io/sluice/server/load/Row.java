package io.sluice.server.load;

import io.sluice.server.Lane;
import io.sluice.testkit.Load;

import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One measured line of a table: a scenario step on one lane.
 *
 * @param step what varied (connections, or "fast GET" / "PUT" in B)
 * @param errors failed or wrong answers
 * @param idleRssMiB the server's RSS before load
 * @param peakRssMiB the server's peak RSS (VmHWM)
 * @param heapPeakShare the highest heap used / max heap seen while loaded
 * @param heapAfterGcMiB the highest heap right after a GC pause during the load (GC log): an upper
 *                       bound on the live set, NaN if no pause happened
 * @param directPeakMiB the highest direct-buffer memory seen while loaded ({@code /metrics})
 * @param sendQueuePeakMiB the highest total kernel send queue of the server's sockets (NaN: not Linux)
 * @param threads the server's threads at the end of the load
 * @param cpuSeconds server CPU seconds spent during the load
 * @param cpuSecondsPerGiB server CPU seconds per GiB of body bytes the whole step moved (both directions)
 * @param heapAllocatedMiBPerGiB MiB of heap the server allocated during the load per GiB of body bytes
 *                               the whole step moved (the same bytes as {@code cpuSecondsPerGiB}), NaN
 *                               if not measured
 * @param load the machine's load over the measured window, the server's and the load generator's
 *             own CPU time left out of {@code othersBusy}
 * @param drain scenario B's drain phase, or null
 * @param note anything else (died of OOM, uploads verified)
 */
record Row(String scenario, String step, Lane lane, double requestsPerSecond, double mibPerSecond, double p50Millis,
           double p99Millis, double p999Millis, long timeouts, long errors, double idleRssMiB, double peakRssMiB,
           double heapPeakShare, double heapAfterGcMiB, double directPeakMiB, double sendQueuePeakMiB, long threads,
           double cpuSeconds, double cpuSecondsPerGiB, double heapAllocatedMiBPerGiB, Load load, Drain drain,
           String note) {

    static String header() {
        return "| scenario | step | lane | req/s | MiB/s | p50 ms | p99 ms | p99.9 ms | timeouts | errors "
                + "| idle RSS MiB | peak RSS MiB | peak heap % | heap after GC MiB | peak direct MiB "
                + "| peak send-queue MiB | threads | CPU s | CPU s/GiB | heap alloc MiB/GiB | note |\n"
                + "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|";
    }

    String markdown() {
        return cells(scenario, step, lane.flag(), number(requestsPerSecond, 0), number(mibPerSecond, 1),
                number(p50Millis, 1), number(p99Millis, 1), number(p999Millis, 1), timeouts, errors,
                number(idleRssMiB, 0), number(peakRssMiB, 0), number(heapPeakShare * 100, 0),
                number(heapAfterGcMiB, 0), number(directPeakMiB, 1), number(sendQueuePeakMiB, 1), threads,
                number(cpuSeconds, 1), number(cpuSecondsPerGiB, 1), number(heapAllocatedMiBPerGiB, 0), note);
    }

    /** One Markdown table line: {@code | a | b | ... |}. */
    static String cells(Object... cells) {
        return Stream.of(cells).map(String::valueOf).collect(Collectors.joining(" | ", "| ", " |"));
    }

    /** A figure with {@code decimals} places, or n/a when it was not measured (NaN). */
    static String number(double value, int decimals) {
        return Double.isNaN(value) || Double.isInfinite(value) ? "n/a"
                : String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}
