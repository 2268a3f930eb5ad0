package io.sluice;

import io.sluice.internal.Descriptions;
import io.sluice.internal.Openers;
import io.sluice.internal.read.ChannelPublisher;
import io.sluice.internal.read.StreamReadSource;
import io.sluice.internal.write.StreamSink;
import io.sluice.internal.write.Writes;
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
 * <p>Example: {@code StreamPipes} (sluice-examples/src/main/java/io/sluice/examples/StreamPipes.java),
 * which gzips and gunzips a file through {@code java.util.zip} streams:
 * <pre>{@code
 * public static CompletionStage<Long> inputStreamToFile(InputStream in, Path file) {
 *     return ReactiveFile.of(file).write(ByteStreams.publisher(in, ReadOptions.defaults()));
 * }
 * }</pre>
 * <pre>{@code
 * public static CompletionStage<Long> fileToOutputStream(Path file, OutputStream out) {
 *     return ByteStreams.write(out, ReactiveFile.of(file).read(), WriteOptions.defaults());
 * }
 * }</pre>
 *
 * <p><b>Threading:</b> stream work runs on {@link IoExecutors#blocking()} (or the options'
 * executor), never on the file pool: a stalled stream must not hold a file thread.
 *
 * <p><b>Backpressure:</b> reads only against demand, emitting what each read returned as soon as
 * it is read (never an empty chunk, never more than the chunk size), so a peer waiting for an
 * answer is not kept waiting for a full chunk. Writes within the strategy's window and byte cap.
 * A stream cannot gather, so small items are batched: see
 * {@link #write(OutputStream, Publisher, WriteOptions)} for the {@code write} calls made.
 *
 * <p><b>Resources:</b> the stream is closed when the operation ends, whichever way (an output
 * stream is flushed first, unless the write was cancelled).
 *
 * <p><b>Cancel:</b> completing a write's stage from outside ({@code cancel}, {@code complete},
 * {@code completeExceptionally}, {@code completeAsync}, {@code orTimeout},
 * {@code completeOnTimeout}) stops the write on the completing thread before the stage completes:
 * no call into the stream ({@code write}, {@code flush}) starts once {@code cancel} has returned.
 * The stream is closed on a helper thread (the library does not flush it; the stream's own
 * {@code close()} may) and {@code cancel} waits at most 100 ms for a call in flight to end and the
 * close to return:
 * where closing unblocks a write (a socket's stream, a {@code PipedOutputStream}) the write fails
 * at once and the stream is closed when {@code cancel} returns; where it cannot (a
 * {@code BufferedOutputStream}, whose {@code close()} waits for its own blocked write; a
 * {@code FileOutputStream} on a FIFO), or whose {@code close()} flushes into a stalled peer,
 * {@code cancel} returns with that one call still blocked,
 * its bytes may still reach the stream, and the stream is closed once it ends. Cancelling a read
 * closes the input stream from the cancelling thread.
 *
 * <p><b>Errors:</b> as for {@link ReactiveFile}.
 */
public final class ByteStreams {

    private ByteStreams() {}

    /**
     * A publisher reading {@code stream} once: a second subscriber receives {@code onError} (§1.11).
     * The stream is closed when the read ends or is cancelled.
     *
     * @param stream the stream to read, already open; from here on the library owns it and closes
     *     it. A range's {@code offset} bytes are skipped first, from the stream's current position.
     * @param options chunk size, range and executor of the read; without an executor it runs on
     *     {@link IoExecutors#blocking()}
     * @return a single-use publisher of the stream's bytes, each chunk what one read returned (at
     *     most {@link ReadOptions#chunkSizeBytes()}), emitted as soon as it is read
     * @throws NullPointerException if {@code stream} or {@code options} is {@code null}
     */
    public static BytePublisher publisher(InputStream stream, ReadOptions options) {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(options, "options");
        return ChannelPublisher.singleUse(
                cancelled -> new StreamReadSource(stream, options.offset(), options.length(), options.exactRange()),
                stream,
                options.chunkSupply(),
                executor(options.executor()),
                Descriptions.of(stream));
    }

    /**
     * {@link #publisher(InputStream, ReadOptions)} with the default options: the whole stream in
     * chunks of up to 64 KiB, on {@link IoExecutors#blocking()}.
     *
     * @param stream the stream to read, already open; the library closes it
     * @return a single-use publisher of the stream's bytes
     * @throws NullPointerException if {@code stream} is {@code null}
     */
    public static BytePublisher publisher(InputStream stream) {
        return publisher(stream, ReadOptions.defaults());
    }

    /**
     * A cold publisher: each subscriber opens its own stream with {@code opener} (on the executor,
     * at its first request). An exception from {@code opener} arrives as {@code onError}.
     *
     * @param opener called once per subscriber to open a fresh stream, which the library then
     *     closes; a checked exception is wrapped in an {@code IOException}, and a {@code null}
     *     result fails that subscriber
     * @param options chunk size, range and executor of each read; without an executor the opener
     *     and the reads run on {@link IoExecutors#blocking()}
     * @return a cold publisher that may be subscribed any number of times; each chunk is what one
     *     read returned (at most {@link ReadOptions#chunkSizeBytes()}), emitted as soon as it is read
     * @throws NullPointerException if {@code opener} or {@code options} is {@code null}
     */
    public static BytePublisher publisher(Callable<? extends InputStream> opener, ReadOptions options) {
        Objects.requireNonNull(opener, "opener");
        Objects.requireNonNull(options, "options");
        return ChannelPublisher.cold(
                cancelled -> {
                    InputStream stream = Openers.open(opener, "stream");
                    return new StreamReadSource(stream, options.offset(), options.length(), options.exactRange());
                },
                options.chunkSupply(),
                executor(options.executor()),
                Descriptions.of(opener));
    }

    /**
     * Writes {@code publisher} to {@code stream}, then flushes and closes it.
     *
     * <p>A stream cannot gather, so small buffers are batched. Of the buffers the writer takes from
     * its queue at once, each of 64 KiB or more with an accessible array is written with one
     * {@code write(byte[], int, int)} call from that array; the others are copied, in order, into a
     * 256 KiB staging buffer, written with one {@code write} call when it is full, before such a
     * large buffer and at the end of the batch. One call may so carry many small buffers, and a
     * buffer may be split across two calls; the bytes reach the stream in order either way. No other
     * write method of the stream is called.
     *
     * @param stream the stream to write to, already open; the library flushes and closes it when
     *     the write ends, whichever way
     * @param publisher the bytes to write, subscribed on the calling thread; each
     *     {@code ByteBuffer} is written from its position to its limit; a buffer passed to
     *     {@code onNext} belongs to the writer until the returned stage completes: do not change or
     *     reuse it before then, or the changed bytes may be written
     * @param options demand strategy, byte cap, executor and listener of the write ({@code mode} and
     *     {@code atomicReplace} do not apply to a stream); without an executor it runs on
     *     {@link IoExecutors#blocking()}
     * @return a stage completing with the number of bytes written once the stream is closed, or
     *     failing with the upstream's or the stream's exception; cancelling it stops the write and
     *     closes the stream, unblocking a write blocked in it where closing does (see Cancel in the
     *     class documentation)
     * @throws NullPointerException if {@code stream}, {@code publisher} or {@code options} is
     *     {@code null}
     */
    public static CompletionStage<Long> write(
            OutputStream stream, Publisher<? extends ByteBuffer> publisher, WriteOptions options) {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(options, "options");
        return Writes.start(publisher, new StreamSink(stream), options, IoExecutors::blocking, Descriptions.of(stream));
    }

    /**
     * Writes a {@link Flow.Publisher} to {@code stream}, then flushes and closes it; as
     * {@link #write(OutputStream, Publisher, WriteOptions)}.
     *
     * @param stream the stream to write to, already open; the library flushes and closes it
     * @param publisher the bytes to write, adapted with {@code FlowAdapters} and subscribed on the
     *     calling thread; a buffer passed to {@code onNext} belongs to the writer until the
     *     returned stage completes: do not change or reuse it before then, or the changed bytes may
     *     be written
     * @param options demand strategy, byte cap, executor and listener of the write
     * @return a stage completing with the number of bytes written, or failing with the first error
     * @throws NullPointerException if {@code stream}, {@code publisher} or {@code options} is
     *     {@code null}
     */
    public static CompletionStage<Long> write(
            OutputStream stream, Flow.Publisher<? extends ByteBuffer> publisher, WriteOptions options) {
        return write(stream, Writes.fromFlow(publisher), options);
    }

    /**
     * Writes one of this library's publishers to {@code stream}, then flushes and closes it; this
     * overload only resolves the ambiguity of a {@link BytePublisher}, which is both kinds of
     * publisher.
     *
     * @param stream the stream to write to, already open; the library flushes and closes it
     * @param publisher the bytes to write, for example a file's or another stream's publisher; a
     *     buffer passed to {@code onNext} belongs to the writer until the returned stage completes:
     *     do not change or reuse it before then, or the changed bytes may be written
     * @param options demand strategy, byte cap, executor and listener of the write
     * @return a stage completing with the number of bytes written, or failing with the first error
     * @throws NullPointerException if {@code stream}, {@code publisher} or {@code options} is
     *     {@code null}
     */
    public static CompletionStage<Long> write(OutputStream stream, BytePublisher publisher, WriteOptions options) {
        return write(stream, (Publisher<ByteBuffer>) publisher, options);
    }

    private static Executor executor(Executor chosen) {
        return chosen != null ? chosen : IoExecutors.blocking();
    }
}
