package io.sluice.server.load;

import io.sluice.server.Lane;

/**
 * One measured line of a table: a scenario step on one lane.
 *
 * @param scenario A1, A2, B
 * @param step what varied (connections, or "fast GET" / "PUT" in B)
 * @param lane the lane
 * @param requestsPerSecond completed requests per second
 * @param mibPerSecond body bytes per second
 * @param p50Millis median latency
 * @param p99Millis 99th percentile
 * @param p999Millis 99.9th percentile
 * @param timeouts requests that timed out
 * @param errors failed or wrong answers
 * @param idleRssMiB the server's RSS before load
 * @param peakRssMiB the server's peak RSS (VmHWM)
 * @param heapPeakShare the highest heap used / max heap seen while loaded
 * @param threads the server's threads at the end of the load
 * @param cpuSeconds server CPU seconds spent during the load
 * @param note anything else (died of OOM, uploads verified)
 */
record Row(String scenario, String step, Lane lane, double requestsPerSecond, double mibPerSecond, double p50Millis,
           double p99Millis, double p999Millis, long timeouts, long errors, double idleRssMiB, double peakRssMiB,
           double heapPeakShare, long threads, double cpuSeconds, String note) {

    static String header() {
        return "| scenario | step | lane | req/s | MiB/s | p50 ms | p99 ms | p99.9 ms | timeouts | errors "
                + "| idle RSS MiB | peak RSS MiB | peak heap % | threads | CPU s | note |\n"
                + "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|";
    }

    String markdown() {
        return String.format(java.util.Locale.ROOT,
                "| %s | %s | %s | %.0f | %.1f | %.1f | %.1f | %.1f | %d | %d | %.0f | %.0f | %.0f | %d | %.1f | %s |",
                scenario, step, lane.flag(), requestsPerSecond, mibPerSecond, p50Millis, p99Millis, p999Millis,
                timeouts, errors, idleRssMiB, peakRssMiB, heapPeakShare * 100, threads, cpuSeconds, note);
    }
}
