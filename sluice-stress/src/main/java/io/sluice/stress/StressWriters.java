package io.sluice.stress;

import io.sluice.WriteOptions;
import io.sluice.internal.write.ChannelSink;
import io.sluice.internal.write.ChannelWriteSubscriber;
import org.reactivestreams.Subscription;

/** The writer the write-side stress tests race against: one set-up, so they test the same thing. */
final class StressWriters {

    /** An upstream that ignores request and cancel: the actors deliver the items themselves. */
    private static final Subscription IGNORING = new Subscription() {
        @Override
        public void request(long n) {}

        @Override
        public void cancel() {}
    };

    private StressWriters() {}

    /**
     * A writer into {@code channel} with the default options, its drain on a direct executor (so a
     * pass runs on whichever actor's thread triggers it), already subscribed: its first
     * {@code request(1)} was issued from the drain, on the constructing thread, so actor 1 may send.
     */
    static ChannelWriteSubscriber subscribed(MemoryChannel channel) {
        ChannelWriteSubscriber writer =
                new ChannelWriteSubscriber(new ChannelSink(channel), WriteOptions.defaults(), Runnable::run, "stress");
        writer.onSubscribe(IGNORING);
        return writer;
    }
}
