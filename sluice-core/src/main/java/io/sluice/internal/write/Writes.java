package io.sluice.internal.write;

import io.sluice.WriteOptions;
import io.sluice.internal.OperationFuture;
import org.reactivestreams.FlowAdapters;
import org.reactivestreams.Publisher;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.function.Supplier;

/** Starts writes: builds the subscriber, subscribes it on the caller's thread, returns the stage. */
public final class Writes {

    private Writes() {}

    /**
     * Subscribes a writer for {@code sink} to {@code upstream}; the subscribe runs on this thread.
     *
     * @param defaultExecutor asked only when the options name no executor, so a write on a user's
     *     executor never creates (or fails on the configuration of) a shared pool
     */
    public static OperationFuture<Long> start(
            Publisher<? extends ByteBuffer> upstream,
            WriteSink sink,
            WriteOptions options,
            Supplier<Executor> defaultExecutor,
            String target) {
        return start(upstream, sink, options, defaultExecutor, null, target);
    }

    /**
     * As above; a sync write on the default executor ends (force, commit, close) on
     * {@code defaultFinisher} (W9). A user's executor does all the work itself.
     *
     * @param defaultFinisher asked only for a sync write without a user executor; {@code null}:
     *     the write ends where it ran
     */
    public static OperationFuture<Long> start(
            Publisher<? extends ByteBuffer> upstream,
            WriteSink sink,
            WriteOptions options,
            Supplier<Executor> defaultExecutor,
            Supplier<Executor> defaultFinisher,
            String target) {
        Objects.requireNonNull(upstream, "publisher");
        Objects.requireNonNull(options, "options");
        boolean onDefault = options.executor() == null;
        Executor executor = onDefault ? defaultExecutor.get() : options.executor();
        Executor finisher = onDefault && options.sync() && defaultFinisher != null ? defaultFinisher.get() : null;
        ChannelWriteSubscriber writer = new ChannelWriteSubscriber(sink, options, executor, finisher, target);
        try {
            upstream.subscribe(writer);
        } catch (Throwable t) { // §1.9 violated by upstream: fail the write
            writer.onSubscribe(new NoOpSubscription());
            writer.onError(t);
        }
        return writer.result();
    }

    /** As {@link #start(Publisher, WriteSink, WriteOptions, Supplier, String)}, with a default executor at hand. */
    public static OperationFuture<Long> start(
            Publisher<? extends ByteBuffer> upstream,
            WriteSink sink,
            WriteOptions options,
            Executor defaultExecutor,
            String target) {
        return start(upstream, sink, options, () -> defaultExecutor, target);
    }

    /** A Flow publisher seen as a Reactive Streams one. */
    public static Publisher<? extends ByteBuffer> fromFlow(Flow.Publisher<? extends ByteBuffer> upstream) {
        Objects.requireNonNull(upstream, "publisher");
        return FlowAdapters.toPublisher(upstream);
    }

    private static final class NoOpSubscription implements org.reactivestreams.Subscription {
        @Override
        public void request(long n) {}

        @Override
        public void cancel() {}
    }
}
