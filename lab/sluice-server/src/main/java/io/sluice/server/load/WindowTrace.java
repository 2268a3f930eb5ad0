package io.sluice.server.load;

import io.sluice.lab.Csv;
import io.sluice.lab.DemandRun;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Stream 0's demand window over one run: the {@code --series} CSV rows (one per 10 ms at most, plus one per
 * window change) and, per sink period, the window's last and smallest value, from which {@link #switches()}
 * finds whether it shrank after each fast-to-slow switch.
 *
 * <p><b>Threading:</b> {@link #onPass} is called serially by the writer's drain, so every field is confined to
 * that write's passes; the other methods after the write's stage completed, which happens after its last pass.
 */
final class WindowTrace implements DemandRun.PassListener {

    static final long ROW_INTERVAL_NANOS = 10_000_000;
    static final String CSV_HEADER = "strategy,t_ms,sink_mib_s,window_items,queued_bytes";

    /** One fast period followed by a slow one: the window at the fast period's end, the slow one's minimum. */
    record Switch(long windowAtFastEnd, long slowMinimum) {
        boolean shrank() {
            return slowMinimum < windowAtFastEnd;
        }
    }

    private final String strategy;
    private final long startNanos; // the sink's first (fast) period began at this System.nanoTime()
    private final long periodNanos; // how long each of the sink's periods lasts
    private final List<String> rows = new ArrayList<>();
    private final Map<Long, long[]> windowByPeriod = new TreeMap<>(); // period -> {last, min}
    /** Window x nanoseconds and nanoseconds, in fast periods, then the same in slow ones. */
    private final double[] windowTime = new double[4];

    private long lastNanos = Long.MIN_VALUE;
    private long lastWindow;
    private boolean lastFast;
    private long lastRowNanos = Long.MIN_VALUE;
    private long lastRowWindow = -1;
    private long smallest = Long.MAX_VALUE;
    private long largest = Long.MIN_VALUE;

    WindowTrace(String strategy, long startNanos, long periodNanos) {
        this.strategy = strategy;
        this.startNanos = startNanos;
        this.periodNanos = periodNanos;
    }

    @Override
    public void onPass(long queuedBytes, long window, long outstandingItems, long writtenBytes, long requestCalls) {
        long now = System.nanoTime();
        if (lastNanos != Long.MIN_VALUE) {
            int phase = lastFast ? 0 : 2;
            windowTime[phase] += (double) lastWindow * (now - lastNanos);
            windowTime[phase + 1] += now - lastNanos;
        }
        lastNanos = now;
        lastWindow = window;
        long period = (now - startNanos) / periodNanos;
        lastFast = period % 2 == 0;
        smallest = Math.min(smallest, window);
        largest = Math.max(largest, window);
        windowByPeriod.merge(period, new long[] {window, window}, (old, latest) ->
                new long[] {latest[0], Math.min(old[1], latest[1])});
        if (window != lastRowWindow || now - lastRowNanos >= ROW_INTERVAL_NANOS) {
            lastRowNanos = now;
            lastRowWindow = window;
            rows.add(String.format(
                    Locale.ROOT,
                    "%s,%.3f,%.0f,%d,%d",
                    Csv.quote(strategy),
                    (now - startNanos) / 1e6,
                    DemandScenario.sinkBytesPerSecond(now - startNanos, periodNanos) / DemandScenario.MIB,
                    window,
                    queuedBytes));
        }
    }

    /**
     * Every fast period followed by a slow period the write lived through (with snapshots after it): a write
     * that ends inside the slow period had requested all its items before it began, so could not adapt.
     */
    List<Switch> switches() {
        List<Switch> switches = new ArrayList<>();
        for (Map.Entry<Long, long[]> entry : windowByPeriod.entrySet()) {
            long period = entry.getKey();
            long[] slow = windowByPeriod.get(period + 1);
            if (period % 2 == 0 && slow != null && windowByPeriod.containsKey(period + 2)) {
                switches.add(new Switch(entry.getValue()[0], slow[1]));
            }
        }
        return switches;
    }

    /** {@link #windowTime}; each interval between snapshots counts at the earlier snapshot's window. */
    double[] windowTime() {
        return windowTime.clone();
    }

    long smallestWindow() {
        return smallest;
    }

    long largestWindow() {
        return largest;
    }

    List<String> csvRows() {
        return rows;
    }
}
