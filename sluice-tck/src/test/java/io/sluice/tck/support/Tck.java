package io.sluice.tck.support;

import org.reactivestreams.tck.TestEnvironment;

/**
 * Timeouts shared by every TCK class, sized for a loaded 2-core CI machine. No retries anywhere:
 * a test that fails once is a bug to fix, not noise to re-run.
 *
 * <ul>
 *   <li>{@link #TIMEOUT_MILLIS}: how long the TCK waits for a signal it expects (a request, an
 *       element, a terminal signal). Generous: it only costs time when a test is failing.</li>
 *   <li>{@link #NO_SIGNALS_MILLIS}: how long the TCK watches for a signal that must not come.
 *       Every test pays it once or twice, so it sets the suite's run time.</li>
 * </ul>
 * Both can be raised with {@code -Dsluice.tck.timeoutMillis} / {@code -Dsluice.tck.noSignalsMillis}.
 */
public final class Tck {

    public static final long TIMEOUT_MILLIS = Long.getLong("sluice.tck.timeoutMillis", 2000);
    public static final long NO_SIGNALS_MILLIS = Long.getLong("sluice.tck.noSignalsMillis", 500);
    /**
     * How long §3.13 waits after {@code cancel} before checking that the subscriber was dropped.
     * Our reads drop the subscriber inside {@code cancel()} itself (the TCK collects garbage once,
     * right after it), so this only bounds the wait for the reference queue.
     */
    public static final long GC_TIMEOUT_MILLIS = Long.getLong("sluice.tck.gcTimeoutMillis", 1000);

    private Tck() {}

    public static TestEnvironment environment() {
        return new TestEnvironment(TIMEOUT_MILLIS, NO_SIGNALS_MILLIS);
    }
}
