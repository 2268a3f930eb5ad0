package io.sluice.server.load;

/**
 * What one traffic class of a step came to, whichever generator measured it.
 *
 * @param ok requests answered as expected
 * @param bodyBytes body bytes of those answers
 * @param errors failed or wrong answers
 * @param timeouts requests that timed out
 * @param p50Millis median latency
 * @param p99Millis 99th percentile
 * @param p999Millis 99.9th percentile
 */
record Traffic(long ok, long bodyBytes, long errors, long timeouts, double p50Millis, double p99Millis,
               double p999Millis) {
}
