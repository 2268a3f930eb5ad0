package io.sluice.internal.write;

import io.sluice.demand.DemandStrategy;

/**
 * A write as a JDK Flight Recorder event ({@code io.sluice.Write}): target, strategy, bytes,
 * items, request calls, peak queued bytes, outcome, and the write's duration; and an
 * {@code io.sluice.LargerItem} event for each item larger than any before it that arrived while
 * demand granted for smaller items was outstanding. Costs one object per write when recording is
 * off; nothing at all when the runtime has no {@code jdk.jfr} module.
 *
 * <p>Threading: created by the writer's constructor, ended once on its drain.
 */
abstract class WriteRecording {

    private static final boolean AVAILABLE =
            ModuleLayer.boot().findModule("jdk.jfr").isPresent();

    private static final WriteRecording NONE = new WriteRecording() {
        @Override
        void end(long bytes, long items, long requestCalls, long peakQueuedBytes, String outcome) {}

        @Override
        void largerItem(long itemBytes, long previousLargestBytes, long outstandingItems) {}
    };

    /**
     * Starts timing a write to {@code target} under {@code strategy}, which is described only if
     * the event is recorded: a strategy's {@code toString} formats its numbers, too dear for every
     * write of a small file.
     */
    static WriteRecording start(String target, DemandStrategy strategy) {
        return AVAILABLE ? FlightRecorderWrite.begin(target, strategy) : NONE;
    }

    /** Ends the write: commits the event if recording is on. */
    abstract void end(long bytes, long items, long requestCalls, long peakQueuedBytes, String outcome);

    /** An item larger than any before it arrived with {@code outstandingItems} more requested. */
    abstract void largerItem(long itemBytes, long previousLargestBytes, long outstandingItems);
}
