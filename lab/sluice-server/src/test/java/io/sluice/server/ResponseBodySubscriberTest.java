package io.sluice.server;

import io.sluice.ChunkPool;
import io.sluice.ReactiveFile;
import io.sluice.ReadOptions;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * When {@link ResponseBodySubscriber} gives lent chunks back, step by step against a response whose
 * writes complete only when the test says: never while Jetty may still read a chunk (its write's
 * callback has not completed), always once it completed, succeeded or failed, and at once for a
 * chunk that arrives after the response failed. The chunks are real loans from a small pool, read
 * from a file.
 */
@Timeout(30)
class ResponseBodySubscriberTest {

    private static final int CHUNK_BYTES = 4096;

    @TempDir
    Path directory;

    private final ChunkPool pool = ChunkPool.create(CHUNK_BYTES, 16);
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final Upstream upstream = new Upstream();

    @Test
    void aWrittenChunkComesBackOnlyWhenItsWriteSucceeded() throws Exception {
        List<ByteBuffer> chunks = lend(2);
        Writes writes = new Writes(false);
        ResponseBodySubscriber subscriber = ResponseBodySubscriber.bounded(writes.response(), Callback.from(done));
        subscriber.onSubscribe(upstream);
        assertEquals(1, upstream.requested);

        subscriber.onNext(chunks.get(0));
        assertSame(chunks.get(0), writes.get(0).buffer());
        assertEquals(2, upstream.requested, "one written, one may wait");
        subscriber.onNext(chunks.get(1));
        assertEquals(1, writes.size(), "one write at a time");
        assertTrue(ChunkPool.isLent(chunks.get(0)), "Jetty is still writing the first chunk");
        assertTrue(ChunkPool.isLent(chunks.get(1)));

        writes.get(0).callback().succeeded();
        assertFalse(ChunkPool.isLent(chunks.get(0)), "the first write completed: its chunk is back");
        assertSame(chunks.get(1), writes.get(1).buffer());
        assertTrue(ChunkPool.isLent(chunks.get(1)), "Jetty is writing the second chunk");

        subscriber.onComplete();
        assertEquals(2, writes.size(), "the last write waits for the pending one");
        writes.get(1).callback().succeeded();
        assertFalse(ChunkPool.isLent(chunks.get(1)));
        assertTrue(writes.get(2).last());
        assertFalse(done.isDone());
        writes.get(2).callback().succeeded();
        done.get(1, TimeUnit.SECONDS);
        assertEveryChunkBack();
    }

    @Test
    void writesThatCompleteAtOnceGiveEachChunkBackBeforeTheNextWrite() throws Exception {
        List<ByteBuffer> chunks = lend(3);
        Writes writes = new Writes(true);
        ResponseBodySubscriber subscriber = ResponseBodySubscriber.bounded(writes.response(), Callback.from(done));
        subscriber.onSubscribe(upstream);
        for (ByteBuffer chunk : chunks) {
            subscriber.onNext(chunk);
            assertFalse(ChunkPool.isLent(chunk), "written and completed within onNext");
        }
        subscriber.onComplete();
        done.get(1, TimeUnit.SECONDS);
        assertEquals(4, writes.size());
        assertEveryChunkBack();
    }

    /**
     * C-unbounded queues everything: the write that fails gives back its chunk, the failure gives
     * back the queue, and a chunk that arrives after the cancel (§2.8) comes back at once.
     */
    @Test
    void aFailedWriteGivesBackItsChunkTheQueueAndLateChunks() throws Exception {
        List<ByteBuffer> chunks = lend(4);
        Writes writes = new Writes(false);
        ResponseBodySubscriber subscriber = ResponseBodySubscriber.unbounded(writes.response(), Callback.from(done));
        subscriber.onSubscribe(upstream);
        for (ByteBuffer chunk : chunks.subList(0, 3)) {
            subscriber.onNext(chunk);
        }
        assertEquals(1, writes.size());
        for (ByteBuffer chunk : chunks) {
            assertTrue(ChunkPool.isLent(chunk), "nothing comes back while the first write is pending");
        }

        IOException reset = new IOException("Connection reset by peer");
        writes.get(0).callback().failed(reset);
        assertTrue(upstream.cancelled);
        ExecutionException failure = assertThrows(ExecutionException.class, () -> done.get(1, TimeUnit.SECONDS));
        assertSame(reset, failure.getCause());
        for (ByteBuffer chunk : chunks.subList(0, 3)) {
            assertFalse(ChunkPool.isLent(chunk), "written, queued: all back");
        }

        subscriber.onNext(chunks.get(3));
        assertFalse(ChunkPool.isLent(chunks.get(3)), "a late chunk comes back at once");
        assertEquals(1, writes.size(), "and is not written");
        assertEveryChunkBack();
    }

    @Test
    void aWriteThatFailsAtOnceGivesItsChunkBack() throws Exception {
        List<ByteBuffer> chunks = lend(2);
        Writes writes = new Writes(false);
        writes.failAtOnce = new IOException("response already failed");
        ResponseBodySubscriber subscriber = ResponseBodySubscriber.bounded(writes.response(), Callback.from(done));
        subscriber.onSubscribe(upstream);
        subscriber.onNext(chunks.get(0));
        assertFalse(ChunkPool.isLent(chunks.get(0)));
        assertTrue(upstream.cancelled);
        assertTrue(done.isCompletedExceptionally());
        subscriber.onNext(chunks.get(1)); // requested before the write failed
        assertFalse(ChunkPool.isLent(chunks.get(1)));
        assertEveryChunkBack();
    }

    /** The publisher's error ends the response, but not the pending write: its chunk waits for it. */
    @Test
    void anUpstreamErrorLeavesThePendingWritesChunkToItsCallback() throws Exception {
        List<ByteBuffer> chunks = lend(1);
        Writes writes = new Writes(false);
        ResponseBodySubscriber subscriber = ResponseBodySubscriber.bounded(writes.response(), Callback.from(done));
        subscriber.onSubscribe(upstream);
        subscriber.onNext(chunks.get(0));
        IOException readFailed = new IOException("read failed");
        subscriber.onError(readFailed);
        assertTrue(ChunkPool.isLent(chunks.get(0)), "Jetty is still writing it");
        assertFalse(done.isDone());

        writes.get(0).callback().succeeded();
        assertFalse(ChunkPool.isLent(chunks.get(0)));
        ExecutionException failure = assertThrows(ExecutionException.class, () -> done.get(1, TimeUnit.SECONDS));
        assertSame(readFailed, failure.getCause());
        assertEquals(1, writes.size());
        assertEveryChunkBack();
    }

    private void assertEveryChunkBack() {
        assertEquals(pool.allocatedChunks(), pool.idleChunks(), pool.toString());
    }

    /** {@code count} chunks lent by a read of a file of that many chunks, held by the test until handed on. */
    private List<ByteBuffer> lend(int count) throws Exception {
        Path file = Files.write(
                directory.resolve("chunks-" + count), FileServerTest.randomBytes(count * CHUNK_BYTES, count));
        List<ByteBuffer> chunks = new ArrayList<>();
        CompletableFuture<Void> read = new CompletableFuture<>();
        ReadOptions lent = ReadOptions.defaults().withLentChunks(pool);
        ReactiveFile.of(file).read(lent).subscribe(new Flow.Subscriber<ByteBuffer>() {
            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                subscription.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(ByteBuffer chunk) {
                synchronized (chunks) {
                    chunks.add(chunk);
                }
            }

            @Override
            public void onError(Throwable failure) {
                read.completeExceptionally(failure);
            }

            @Override
            public void onComplete() {
                read.complete(null);
            }
        });
        read.get(10, TimeUnit.SECONDS);
        synchronized (chunks) {
            assertEquals(count, chunks.size());
            chunks.forEach(chunk -> assertTrue(ChunkPool.isLent(chunk)));
            return new ArrayList<>(chunks);
        }
    }

    record Write(boolean last, ByteBuffer buffer, Callback callback) {}

    /**
     * A Jetty {@link Response} whose only working method is {@code write}: it records each write and
     * leaves its callback to the test, or completes it at once.
     */
    private static final class Writes {

        private final boolean succeedAtOnce;
        private final List<Write> writes = new ArrayList<>(); // test thread only
        Throwable failAtOnce; // test thread only

        Writes(boolean succeedAtOnce) {
            this.succeedAtOnce = succeedAtOnce;
        }

        Response response() {
            return (Response) Proxy.newProxyInstance(
                    Response.class.getClassLoader(), new Class<?>[] {Response.class}, (proxy, method, args) -> {
                        if (method.getName().equals("write") && args.length == 3 && args[1] instanceof ByteBuffer) {
                            Callback callback = (Callback) args[2];
                            writes.add(new Write((Boolean) args[0], (ByteBuffer) args[1], callback));
                            if (failAtOnce != null) {
                                callback.failed(failAtOnce);
                            } else if (succeedAtOnce) {
                                callback.succeeded();
                            }
                            return null;
                        }
                        if (method.getName().equals("toString")) {
                            return "test response";
                        }
                        throw new UnsupportedOperationException(method.toString());
                    });
        }

        Write get(int index) {
            assertTrue(index < writes.size(), "write #" + index + " was not started; writes: " + writes.size());
            return writes.get(index);
        }

        int size() {
            return writes.size();
        }
    }

    /** The publisher's side of the subscription, as the subscriber uses it. */
    private static final class Upstream implements Flow.Subscription {

        long requested; // test thread only
        boolean cancelled; // test thread only

        @Override
        public void request(long n) {
            requested = n == Long.MAX_VALUE || requested == Long.MAX_VALUE ? Long.MAX_VALUE : requested + n;
        }

        @Override
        public void cancel() {
            cancelled = true;
        }
    }
}
