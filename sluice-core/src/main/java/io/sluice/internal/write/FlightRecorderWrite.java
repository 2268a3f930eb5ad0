package io.sluice.internal.write;

import io.sluice.demand.DemandStrategy;
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

    @Name("io.sluice.LargerItem")
    @Label("Larger Write Item")
    @Category({"sluice", "I/O"})
    @Description("An item larger than any before it reached a writer while demand granted for smaller "
            + "items was outstanding: the byte cap may be exceeded by up to (item - previous largest) "
            + "bytes per outstanding item")
    static final class LargerItemEvent extends Event {
        @Label("Target")
        String target;

        @Label("Item Size")
        @DataAmount
        long itemBytes;

        @Label("Previous Largest Item")
        @DataAmount
        long previousLargestBytes;

        @Label("Outstanding Items")
        long outstandingItems;
    }

    private final WriteEvent event = new WriteEvent();
    private final DemandStrategy strategy; // described into the event only when it is committed

    private FlightRecorderWrite(DemandStrategy strategy) {
        this.strategy = strategy;
    }

    static WriteRecording begin(String target, DemandStrategy strategy) {
        FlightRecorderWrite recording = new FlightRecorderWrite(strategy);
        recording.event.target = target;
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
            event.strategy = strategy.toString();
            event.commit();
        }
    }

    @Override
    void largerItem(long itemBytes, long previousLargestBytes, long outstandingItems) {
        LargerItemEvent larger = new LargerItemEvent();
        if (larger.shouldCommit()) {
            larger.target = event.target;
            larger.itemBytes = itemBytes;
            larger.previousLargestBytes = previousLargestBytes;
            larger.outstandingItems = outstandingItems;
            larger.commit();
        }
    }
}
