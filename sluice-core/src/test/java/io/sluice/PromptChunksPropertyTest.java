package io.sluice;

import io.sluice.testing.Bytes;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whatever the pattern of writes into a pipe, the publisher over it (as a channel or as a stream)
 * delivers each write before the writer sends the next one, never emits an empty chunk or one
 * larger than the chunk size, and its chunks concatenate to exactly the bytes written.
 */
class PromptChunksPropertyTest {

    @Property(tries = 40)
    void everyWriteIsDeliveredBeforeTheNextAndTheChunksAreExact(
            @ForAll @Size(min = 1, max = 12) List<@IntRange(min = 1, max = 20_000) Integer> writes,
            @ForAll @IntRange(min = 1, max = 70_000) int chunkSize,
            @ForAll boolean oneRequestAtATime,
            @ForAll boolean asStream) throws Exception {
        Pipe pipe = Pipe.open();
        Recording subscriber = new Recording(chunkSize, oneRequestAtATime);
        ReadOptions options = ReadOptions.defaults().withChunkSize(chunkSize);
        BytePublisher publisher = asStream
                ? ByteStreams.publisher(Channels.newInputStream(pipe.source()), options)
                : ByteChannels.publisher(pipe.source(), options);
        publisher.subscribe(subscriber);
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        try (Pipe.SinkChannel sink = pipe.sink()) {
            for (int i = 0; i < writes.size(); i++) {
                byte[] piece = Bytes.random(writes.get(i), i);
                ByteBuffer buffer = ByteBuffer.wrap(piece);
                while (buffer.hasRemaining()) {
                    sink.write(buffer);
                }
                written.write(piece);
                assertTrue(subscriber.awaitReceived(written.size()), "write " + i + " of " + piece.length
                        + " bytes not delivered; received " + subscriber.received + " of " + written.size());
            }
        }
        assertTrue(subscriber.terminated.await(10, TimeUnit.SECONDS), "no terminal signal");
        assertNull(subscriber.error);
        assertNull(subscriber.violation, subscriber.violation);
        assertArrayEquals(written.toByteArray(), subscriber.bytes.toByteArray());
    }

    /** Records bytes and checks each chunk's size as it arrives. */
    private static final class Recording implements Subscriber<ByteBuffer> {
        private final int chunkSize;
        private final boolean oneAtATime;
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();   // onNext; read after terminated
        final CountDownLatch terminated = new CountDownLatch(1);
        private Subscription subscription;     // onSubscribe, then onNext (serial, §1.3)
        volatile long received;                // onNext (under this) -> writer thread
        volatile String violation;             // onNext -> test thread
        volatile Throwable error;              // onError -> test thread

        Recording(int chunkSize, boolean oneAtATime) {
            this.chunkSize = chunkSize;
            this.oneAtATime = oneAtATime;
        }

        @Override
        public void onSubscribe(Subscription s) {
            subscription = s;
            s.request(oneAtATime ? 1 : Long.MAX_VALUE);
        }

        @Override
        public void onNext(ByteBuffer chunk) {
            int n = chunk.remaining();
            if (n == 0 || n > chunkSize) {
                violation = "a chunk of " + n + " bytes with chunk size " + chunkSize;
            }
            byte[] copy = new byte[n];
            chunk.get(copy);
            bytes.write(copy, 0, n);
            synchronized (this) {
                received += n;
                notifyAll();
            }
            if (oneAtATime) {
                subscription.request(1);
            }
        }

        synchronized boolean awaitReceived(long total) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (received < total) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            return true;
        }

        @Override
        public void onError(Throwable t) {
            error = t;
            terminated.countDown();
        }

        @Override
        public void onComplete() {
            terminated.countDown();
        }
    }
}
