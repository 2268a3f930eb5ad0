package io.sluice.server.load;

/**
 * What one traffic class of a step came to, whichever generator measured it: requests answered as
 * expected ({@code ok}) and their body bytes, failed or wrong answers ({@code errors}), timeouts,
 * and latency percentiles (NaN when nothing was answered).
 */
record Traffic(
        long ok, long bodyBytes, long errors, long timeouts, double p50Millis, double p99Millis, double p999Millis) {}
