package io.sluice.internal;

/**
 * A write as a JDK Flight Recorder event ({@code io.sluice.Write}): target, strategy, bytes,
 * items, request calls, peak queued bytes, outcome, and the write's duration. Costs one object per
 * write when recording is off; nothing at all when the runtime has no {@code jdk.jfr} module.
 *
 * <p>Threading: created by the writer's constructor, ended once on its drain.
 */
abstract class WriteRecording {

    private static final boolean AVAILABLE = ModuleLayer.boot().findModule("jdk.jfr").isPresent();

    private static final WriteRecording NONE = new WriteRecording() {
        @Override
        void end(long bytes, long items, long requestCalls, long peakQueuedBytes, String outcome) {
        }
    };

    /** Starts timing a write to {@code target}. */
    static WriteRecording start(String target, String strategy) {
        return AVAILABLE ? FlightRecorderWrite.begin(target, strategy) : NONE;
    }

    /** Ends the write: commits the event if recording is on. */
    abstract void end(long bytes, long items, long requestCalls, long peakQueuedBytes, String outcome);
}
