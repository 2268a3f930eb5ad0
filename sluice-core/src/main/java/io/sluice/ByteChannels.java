package io.sluice;

import io.sluice.internal.Descriptions;
import io.sluice.internal.Openers;
import io.sluice.internal.read.ChannelPublisher;
import io.sluice.internal.read.ChannelReadSource;
import io.sluice.internal.write.ChannelSink;
import io.sluice.internal.write.Writes;
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
 * <p>Example: {@code SocketTransfers}
 * (sluice-examples/src/main/java/io/sluice/examples/SocketTransfers.java), a file into a socket and
 * a socket into any channel, tested with a slow peer on loopback and bounded memory:
 * <pre>{@code
 * public static CompletionStage<Long> sendFile(Path file, SocketChannel socket, WriteOptions options) {
 *     return ByteChannels.write(socket, ReactiveFile.of(file).read(), options);
 * }
 * }</pre>
 * <pre>{@code
 * public static CompletionStage<Long> receiveToChannel(SocketChannel socket, WritableByteChannel target,
 *                                                      WriteOptions options) {
 *     return ByteChannels.write(target, ByteChannels.publisher(socket, ReadOptions.defaults()), options);
 * }
 * }</pre>
 *
 * <p><b>Threading:</b> a {@link FileChannel} is served by {@link IoExecutors#files()}, any other
 * channel by {@link IoExecutors#blocking()} (a peer may stall it), unless the options name an
 * executor. A non-blocking selectable channel is waited on with a selector, never spun on; other
 * channels that return 0 are retried with a growing back-off.
 *
 * <p><b>Backpressure:</b> as for {@link ReactiveFile}: reads only against demand, writes within
 * the strategy's window and byte cap; gathering writes on a {@code GatheringByteChannel}. A
 * publisher emits what each read of the channel returned as soon as it is read, never an empty
 * chunk and never more than the chunk size: a pipe or socket whose peer waits for an answer is not
 * kept waiting for a full chunk.
 *
 * <p><b>Resources:</b> the library closes the channel when the operation ends, whichever way:
 * after the last byte, on error, and on cancellation. Cancelling a read closes a socket, pipe or
 * other interruptible channel (not a {@code FileChannel}) from the cancelling thread, so a read
 * blocked on a silent peer ends.
 *
 * <p><b>Cancel:</b> completing a write's stage from outside ({@code cancel}, {@code complete},
 * {@code completeExceptionally}, {@code completeAsync}, {@code orTimeout},
 * {@code completeOnTimeout}) stops the write on
 * the completing thread before the stage completes; no write call starts once {@code cancel} has
 * returned. A channel that is an {@link java.nio.channels.InterruptibleChannel} (every JDK channel)
 * is closed then, before any dependent of the stage runs: a write blocked in it ends, and the
 * close waits for the one call in flight, so for a {@code FileChannel} no byte reaches the file
 * after {@code cancel} returns and {@code cancel} can block for as long as a {@code force} in
 * progress. A user's channel that is not interruptible is closed then too if no write call is in
 * flight; if one is, it is not closed under that call: that one call may still complete, and the
 * channel is closed when it returns, possibly after the stage's dependents ran. The upstream is
 * cancelled afterwards, from the write's drain (§2.7).
 *
 * <p><b>Errors:</b> as for {@link ReactiveFile}.
 */
public final class ByteChannels {

    private ByteChannels() {}

    /**
     * A publisher reading {@code channel} once: a second subscriber receives {@code onError} (§1.11).
     * The channel is closed when the read ends or is cancelled.
     *
     * @param channel the channel to read, already open; from here on the library owns it and closes
     *     it. A range's {@code offset} bytes are read and discarded first, since a channel is read
     *     from its current position.
     * @param options chunk size, range and executor of the read; without an executor a
     *     {@link FileChannel} is read on {@link IoExecutors#files()}, any other channel on
     *     {@link IoExecutors#blocking()}
     * @return a single-use publisher of the channel's bytes, each chunk what one read returned (at
     *     most {@link ReadOptions#chunkSizeBytes()}), emitted as soon as it is read
     * @throws NullPointerException if {@code channel} or {@code options} is {@code null}
     */
    public static BytePublisher publisher(ReadableByteChannel channel, ReadOptions options) {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(options, "options");
        return ChannelPublisher.singleUse(
                cancelled -> new ChannelReadSource(
                        channel, options.offset(), options.length(), options.exactRange(), cancelled),
                channel,
                options.chunkSupply(),
                executorFor(channel, options.executor()),
                Descriptions.of(channel));
    }

    /**
     * {@link #publisher(ReadableByteChannel, ReadOptions)} with the default options: the whole
     * channel in chunks of up to 64 KiB, on the default executor for its kind.
     *
     * @param channel the channel to read, already open; the library closes it
     * @return a single-use publisher of the channel's bytes
     * @throws NullPointerException if {@code channel} is {@code null}
     */
    public static BytePublisher publisher(ReadableByteChannel channel) {
        return publisher(channel, ReadOptions.defaults());
    }

    /**
     * A cold publisher: each subscriber calls {@code opener} (on the executor, at its first
     * request) and reads its own channel. An exception from {@code opener} arrives as
     * {@code onError}.
     *
     * @param opener called once per subscriber to open a fresh channel, which the library then
     *     closes; a checked exception is wrapped in an {@code IOException}, and a {@code null}
     *     result fails that subscriber
     * @param options chunk size, range and executor of each read; without an executor the
     *     opener and the reads run on {@link IoExecutors#blocking()}
     * @return a cold publisher that may be subscribed any number of times; each chunk is what one
     *     read returned (at most {@link ReadOptions#chunkSizeBytes()}), emitted as soon as it is read
     * @throws NullPointerException if {@code opener} or {@code options} is {@code null}
     */
    public static BytePublisher publisher(Callable<? extends ReadableByteChannel> opener, ReadOptions options) {
        Objects.requireNonNull(opener, "opener");
        Objects.requireNonNull(options, "options");
        Executor executor = options.executor() != null ? options.executor() : IoExecutors.blocking();
        return ChannelPublisher.cold(
                cancelled -> {
                    ReadableByteChannel channel = Openers.open(opener, "channel");
                    return new ChannelReadSource(
                            channel, options.offset(), options.length(), options.exactRange(), cancelled);
                },
                options.chunkSupply(),
                executor,
                Descriptions.of(opener));
    }

    /**
     * Writes {@code publisher} to {@code channel}, then closes it; completes with the byte count.
     *
     * @param channel the channel to write to, already open, from its current position; the library
     *     closes it when the write ends, whichever way
     * @param publisher the bytes to write, subscribed on the calling thread; each
     *     {@code ByteBuffer} is written from its position to its limit; a buffer passed to
     *     {@code onNext} belongs to the writer until the returned stage completes: do not change or
     *     reuse it before then, or the changed bytes may be written
     * @param options demand strategy, byte cap, executor and listener of the write ({@code mode} and
     *     {@code atomicReplace} do not apply to a channel); without an executor a
     *     {@link FileChannel} is written on {@link IoExecutors#files()}, any other channel on
     *     {@link IoExecutors#blocking()}
     * @return a stage completing with the number of bytes written once the channel is closed, or
     *     failing with the upstream's or the channel's exception; cancelling it stops the write and
     *     closes the channel as the class documentation says (Cancel)
     * @throws NullPointerException if {@code channel}, {@code publisher} or {@code options} is
     *     {@code null}
     */
    public static CompletionStage<Long> write(
            WritableByteChannel channel, Publisher<? extends ByteBuffer> publisher, WriteOptions options) {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(options, "options");
        return Writes.start(
                publisher,
                new ChannelSink(channel),
                options,
                () -> executorFor(channel, null),
                Descriptions.of(channel));
    }

    /**
     * Writes a {@link Flow.Publisher} to {@code channel}, then closes it; as
     * {@link #write(WritableByteChannel, Publisher, WriteOptions)}.
     *
     * @param channel the channel to write to, already open; the library closes it
     * @param publisher the bytes to write, adapted with {@code FlowAdapters} and subscribed on the
     *     calling thread; a buffer passed to {@code onNext} belongs to the writer until the
     *     returned stage completes: do not change or reuse it before then, or the changed bytes may
     *     be written
     * @param options demand strategy, byte cap, executor and listener of the write
     * @return a stage completing with the number of bytes written, or failing with the first error
     * @throws NullPointerException if {@code channel}, {@code publisher} or {@code options} is
     *     {@code null}
     */
    public static CompletionStage<Long> write(
            WritableByteChannel channel, Flow.Publisher<? extends ByteBuffer> publisher, WriteOptions options) {
        return write(channel, Writes.fromFlow(publisher), options);
    }

    /**
     * Writes one of this library's publishers to {@code channel}, then closes it; this overload only
     * resolves the ambiguity of a {@link BytePublisher}, which is both kinds of publisher.
     *
     * @param channel the channel to write to, already open; the library closes it
     * @param publisher the bytes to write, for example another channel's or a file's
     *     {@code read()}; a buffer passed to {@code onNext} belongs to the writer until the
     *     returned stage completes: do not change or reuse it before then, or the changed bytes may
     *     be written
     * @param options demand strategy, byte cap, executor and listener of the write
     * @return a stage completing with the number of bytes written, or failing with the first error
     * @throws NullPointerException if {@code channel}, {@code publisher} or {@code options} is
     *     {@code null}
     */
    public static CompletionStage<Long> write(
            WritableByteChannel channel, BytePublisher publisher, WriteOptions options) {
        return write(channel, (Publisher<ByteBuffer>) publisher, options);
    }

    private static Executor executorFor(java.nio.channels.Channel channel, Executor chosen) {
        if (chosen != null) {
            return chosen;
        }
        return channel instanceof FileChannel ? IoExecutors.files() : IoExecutors.blocking();
    }
}
