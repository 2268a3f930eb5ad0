package io.sluice;

import io.sluice.internal.ChannelPublisher;
import io.sluice.internal.ChannelReadSource;
import io.sluice.internal.ChannelSink;
import io.sluice.internal.Openers;
import io.sluice.internal.Writes;
import org.reactivestreams.Publisher;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;

/**
 * Publishers and writers over any {@link ReadableByteChannel} / {@link WritableByteChannel}: pipes,
 * sockets, files, custom channels.
 *
 * <p><b>Threading:</b> a {@link FileChannel} is served by {@link IoExecutors#files()}, any other
 * channel by {@link IoExecutors#blocking()} (a peer may stall it), unless the options name an
 * executor. A non-blocking selectable channel is waited on with a selector, never spun on; other
 * channels that return 0 are retried with a growing back-off.
 *
 * <p><b>Backpressure:</b> as for {@link ReactiveFile}: reads only against demand, writes within
 * the strategy's window and byte cap; gathering writes on a {@code GatheringByteChannel}.
 *
 * <p><b>Resources:</b> the library closes the channel when the operation ends, whichever way:
 * after the last byte, on error, and on cancellation (which also unblocks a write blocked in an
 * interruptible channel).
 *
 * <p><b>Errors:</b> as for {@link ReactiveFile}.
 */
public final class ByteChannels {

    private ByteChannels() {
    }

    /**
     * A publisher reading {@code channel} once: a second subscriber receives {@code onError} (§1.11).
     * The channel is closed when the read ends or is cancelled.
     */
    public static BytePublisher publisher(ReadableByteChannel channel, ReadOptions options) {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(options, "options");
        return ChannelPublisher.singleUse(
                cancelled -> new ChannelReadSource(channel, options.offset(), options.length(), cancelled),
                options.chunkSizeBytes(), executorFor(channel, options.executor()), channel.toString());
    }

    /** {@link #publisher(ReadableByteChannel, ReadOptions)} with the default options. */
    public static BytePublisher publisher(ReadableByteChannel channel) {
        return publisher(channel, ReadOptions.defaults());
    }

    /**
     * A cold publisher: each subscriber calls {@code opener} (on the executor, at its first
     * request) and reads its own channel. An exception from {@code opener} arrives as
     * {@code onError}.
     */
    public static BytePublisher publisher(Callable<? extends ReadableByteChannel> opener, ReadOptions options) {
        Objects.requireNonNull(opener, "opener");
        Objects.requireNonNull(options, "options");
        Executor executor = options.executor() != null ? options.executor() : IoExecutors.blocking();
        return ChannelPublisher.cold(cancelled -> {
            ReadableByteChannel channel = Openers.open(opener, "channel");
            return new ChannelReadSource(channel, options.offset(), options.length(), cancelled);
        }, options.chunkSizeBytes(), executor, opener.toString());
    }

    /** Writes {@code publisher} to {@code channel}, then closes it; completes with the byte count. */
    public static CompletionStage<Long> write(WritableByteChannel channel,
                                              Publisher<? extends ByteBuffer> publisher,
                                              WriteOptions options) {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(options, "options");
        return Writes.start(publisher, new ChannelSink(channel), options,
                executorFor(channel, null), channel.toString());
    }

    /** Writes a {@link Flow.Publisher} to {@code channel}, then closes it. */
    public static CompletionStage<Long> write(WritableByteChannel channel,
                                              Flow.Publisher<? extends ByteBuffer> publisher,
                                              WriteOptions options) {
        return write(channel, Writes.fromFlow(publisher), options);
    }

    /** Writes one of this library's publishers to {@code channel}, then closes it. */
    public static CompletionStage<Long> write(WritableByteChannel channel, BytePublisher publisher,
                                              WriteOptions options) {
        return write(channel, (Publisher<ByteBuffer>) publisher, options);
    }

    private static Executor executorFor(java.nio.channels.Channel channel, Executor chosen) {
        if (chosen != null) {
            return chosen;
        }
        return channel instanceof FileChannel ? IoExecutors.files() : IoExecutors.blocking();
    }
}
