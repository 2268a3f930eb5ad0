package io.sluice.spring.boot;

import reactor.core.publisher.Flux;
import reactor.core.publisher.SignalType;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;

/**
 * One transfer made through {@link SluiceTransfers} or {@link SluiceFileParts}, as a
 * {@link TransferObserver} sees it: what it is, which file, and its counters so far.
 *
 * <p><b>Threading:</b> one per subscription; its counters are updated on the transfer's threads
 * and may be read from any thread. Once the transfer has ended (completed, failed or cancelled),
 * they are final.
 *
 * <p><b>Errors:</b> its methods do not throw.
 */
public final class Transfer {

    /** What a transfer does. */
    public enum Kind {
        /** A publisher of buffers written to a file (an upload included). */
        WRITE,
        /** A file read as buffers. */
        READ,
        /** A file copied to another, without the bytes passing through buffers. */
        COPY;

        /**
         * The name meters and observations use.
         *
         * @return {@code write}, {@code read} or {@code copy}
         */
        public String tagValue() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Kind kind;
    private final Path file; // null: a store, whose parts each have their file
    private volatile long bytes; // written or emitted so far
    private volatile long largerItems; // items larger than every one before them (writes)

    Transfer(Kind kind, Path file) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.file = file;
    }

    /**
     * What the transfer does.
     *
     * @return its kind
     */
    public Kind kind() {
        return kind;
    }

    /**
     * The file written, read, or copied to.
     *
     * @return the target of a write or copy, the source of a read; {@code null} for
     *     {@link SluiceFileParts#store}, which writes each part to a file of its own
     */
    public Path file() {
        return file;
    }

    /**
     * The bytes moved so far: for a write, those written to the file (also when it then failed or
     * was cancelled); for a read, those emitted; for a copy, the count it completed with (0 until
     * then).
     *
     * @return bytes so far
     */
    public long bytes() {
        return bytes;
    }

    /**
     * Items that arrived larger than every one before them while more were requested: each can
     * make the write hold more than its byte cap (see {@code WriteListener.onLargerItem}).
     *
     * @return the count so far; 0 for reads and copies
     */
    public long largerItems() {
        return largerItems;
    }

    // Written by one thread at a time: a write's drain, or the read's emitting thread.
    void bytes(long total) {
        bytes = total;
    }

    void addBytes(long more) {
        bytes = bytes + more;
    }

    void largerItem() {
        largerItems = largerItems + 1;
    }

    /**
     * {@code signals} calling {@code onStart} when subscribed and {@code onEnd} once when it
     * completes, fails or is cancelled. Before the signal goes downstream, not after it as
     * {@code doFinally} would: whoever waits for a transfer's end then finds it recorded.
     */
    static <T> Flux<T> onEnds(Flux<T> signals, Runnable onStart, BiConsumer<SignalType, Throwable> onEnd) {
        AtomicBoolean ended = new AtomicBoolean();
        return signals.doOnSubscribe(subscription -> onStart.run())
                .doOnComplete(() -> {
                    if (ended.compareAndSet(false, true)) {
                        onEnd.accept(SignalType.ON_COMPLETE, null);
                    }
                })
                .doOnError(failure -> {
                    if (ended.compareAndSet(false, true)) {
                        onEnd.accept(SignalType.ON_ERROR, failure);
                    }
                })
                .doOnCancel(() -> {
                    if (ended.compareAndSet(false, true)) {
                        onEnd.accept(SignalType.CANCEL, null);
                    }
                });
    }

    /** How a transfer ended, in the vocabulary of sluice's JFR event io.sluice.Write. */
    static String outcome(SignalType signal) {
        return switch (signal) {
            case ON_COMPLETE -> "completed";
            case ON_ERROR -> "failed";
            default -> "cancelled";
        };
    }

    @Override
    public String toString() {
        return "Transfer[" + kind.tagValue() + " " + file + ", bytes=" + bytes + "]";
    }
}
