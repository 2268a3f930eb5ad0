package io.sluice;

import io.sluice.internal.ChannelPublisher;
import io.sluice.internal.Openers;
import io.sluice.internal.StreamReadSource;
import io.sluice.internal.StreamSink;
import io.sluice.internal.Writes;
import org.reactivestreams.Publisher;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;

/**
 * Publishers and writers over {@link InputStream} / {@link OutputStream}, for legacy APIs.
 *
 * <p><b>Threading:</b> stream work runs on {@link IoExecutors#blocking()} (or the options'
 * executor), never on the file pool: a stalled stream must not hold a file thread.
 *
 * <p><b>Backpressure:</b> reads only against demand; writes within the strategy's window and
 * byte cap (one {@code write} call per item: streams cannot gather).
 *
 * <p><b>Resources:</b> the stream is closed when the operation ends, whichever way (an output
 * stream is flushed first).
 *
 * <p><b>Errors:</b> as for {@link ReactiveFile}.
 */
public final class ByteStreams {

    private ByteStreams() {
    }

    /** A publisher reading {@code stream} once: a second subscriber receives {@code onError} (§1.11). */
    public static BytePublisher publisher(InputStream stream, ReadOptions options) {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(options, "options");
        return ChannelPublisher.singleUse(
                cancelled -> new StreamReadSource(stream, options.offset(), options.length()),
                options.chunkSizeBytes(), executor(options.executor()), stream.toString());
    }

    /** {@link #publisher(InputStream, ReadOptions)} with the default options. */
    public static BytePublisher publisher(InputStream stream) {
        return publisher(stream, ReadOptions.defaults());
    }

    /** A cold publisher: each subscriber opens its own stream with {@code opener}. */
    public static BytePublisher publisher(Callable<? extends InputStream> opener, ReadOptions options) {
        Objects.requireNonNull(opener, "opener");
        Objects.requireNonNull(options, "options");
        return ChannelPublisher.cold(cancelled -> {
            InputStream stream = Openers.open(opener, "stream");
            return new StreamReadSource(stream, options.offset(), options.length());
        }, options.chunkSizeBytes(), executor(options.executor()), opener.toString());
    }

    /** Writes {@code publisher} to {@code stream}, then flushes and closes it. */
    public static CompletionStage<Long> write(OutputStream stream, Publisher<? extends ByteBuffer> publisher,
                                              WriteOptions options) {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(options, "options");
        return Writes.start(publisher, new StreamSink(stream), options, IoExecutors.blocking(),
                stream.toString());
    }

    /** Writes a {@link Flow.Publisher} to {@code stream}, then flushes and closes it. */
    public static CompletionStage<Long> write(OutputStream stream,
                                              Flow.Publisher<? extends ByteBuffer> publisher,
                                              WriteOptions options) {
        return write(stream, Writes.fromFlow(publisher), options);
    }

    /** Writes one of this library's publishers to {@code stream}, then flushes and closes it. */
    public static CompletionStage<Long> write(OutputStream stream, BytePublisher publisher,
                                              WriteOptions options) {
        return write(stream, (Publisher<ByteBuffer>) publisher, options);
    }

    private static Executor executor(Executor chosen) {
        return chosen != null ? chosen : IoExecutors.blocking();
    }
}
