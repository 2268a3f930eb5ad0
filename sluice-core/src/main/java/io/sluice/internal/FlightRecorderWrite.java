package io.sluice.internal;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** The JFR side of {@link WriteRecording}; loaded only when {@code jdk.jfr} is present. */
final class FlightRecorderWrite extends WriteRecording {

    @Name("io.sluice.Write")
    @Label("Reactive Write")
    @Category({"sluice", "I/O"})
    @Description("A publisher written to a file, channel or stream by sluice")
    static final class WriteEvent extends Event {
        @Label("Target")
        String target;

        @Label("Demand Strategy")
        String strategy;

        @Label("Bytes Written")
        @DataAmount
        long bytes;

        @Label("Items Written")
        long items;

        @Label("Request Calls")
        long requestCalls;

        @Label("Peak Queued Bytes")
        @DataAmount
        long peakQueuedBytes;

        @Label("Outcome")
        String outcome;
    }

    private final WriteEvent event = new WriteEvent();

    private FlightRecorderWrite() {
    }

    static WriteRecording begin(String target, String strategy) {
        FlightRecorderWrite recording = new FlightRecorderWrite();
        recording.event.target = target;
        recording.event.strategy = strategy;
        recording.event.begin();
        return recording;
    }

    @Override
    void end(long bytes, long items, long requestCalls, long peakQueuedBytes, String outcome) {
        event.end();
        if (event.shouldCommit()) {
            event.bytes = bytes;
            event.items = items;
            event.requestCalls = requestCalls;
            event.peakQueuedBytes = peakQueuedBytes;
            event.outcome = outcome;
            event.commit();
        }
    }
}
