package io.sluice.bench;

import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Counts the bytes a read delivers and spot-checks them: the first and last byte of every chunk
 * must be the payload's byte at that offset (one comparison pair per chunk, so the check stays
 * negligible inside the timed part). A dropped, duplicated or reordered chunk fails the read.
 * Confined to the one thread that delivers a stream's chunks at a time (§1.3).
 */
public final class ReadCheck {

    private final long expectedBytes;
    private long received;
    private int largestChunkBytes;
    private String failure;

    /** What a complete and correct read delivered. */
    public record Delivered(long bytes, int largestChunkBytes) {}

    public ReadCheck(long expectedBytes) {
        this.expectedBytes = expectedBytes;
    }

    /** Checks the readable bytes of {@code chunk} without consuming them. */
    public void accept(ByteBuffer chunk) {
        int length = chunk.remaining();
        if (length > 0) {
            accept(length, chunk.get(chunk.position()), chunk.get(chunk.position() + length - 1));
        }
    }

    /** Checks a chunk of {@code length} bytes by its first and last byte. */
    public void accept(int length, byte first, byte last) {
        if (length <= 0) {
            return;
        }
        if (failure == null && (first != Payload.byteAt(received) || last != Payload.byteAt(received + length - 1))) {
            failure = "wrong bytes in the chunk at offset " + received;
        }
        received += length;
        largestChunkBytes = Math.max(largestChunkBytes, length);
    }

    /**
     * Reads {@code chunks} as a user would write the sink: requests everything at once (like Reactor's
     * {@code subscribe()}), checks each chunk, hands it to {@code after}, then drops it. Completes with
     * {@link #finish()} when the stream completes, exceptionally when it fails or a check throws.
     */
    public CompletableFuture<Delivered> drain(Publisher<? extends ByteBuffer> chunks, Consumer<ByteBuffer> after) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        chunks.subscribe(new Subscriber<ByteBuffer>() {
            private Subscription subscription;

            @Override
            public void onSubscribe(Subscription subscription) {
                this.subscription = subscription;
                subscription.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(ByteBuffer chunk) {
                try {
                    accept(chunk);
                    after.accept(chunk);
                } catch (RuntimeException e) {
                    subscription.cancel();
                    done.completeExceptionally(e);
                }
            }

            @Override
            public void onError(Throwable error) {
                done.completeExceptionally(error);
            }

            @Override
            public void onComplete() {
                done.complete(null);
            }
        });
        return done.thenApply(ignored -> finish());
    }

    /** What the stream delivered when it was complete and correct; throws otherwise. */
    public Delivered finish() {
        if (failure != null) {
            throw new IllegalStateException("read delivered wrong data: " + failure);
        }
        if (received != expectedBytes) {
            throw new IllegalStateException("read delivered " + received + " bytes, expected " + expectedBytes);
        }
        return new Delivered(received, largestChunkBytes);
    }
}
