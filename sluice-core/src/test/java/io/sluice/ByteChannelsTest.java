package io.sluice;

import io.sluice.testing.Bytes;
import io.sluice.testing.TestPublishers;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channel;
import java.nio.channels.Pipe;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ByteChannelsTest {

    @Test
    void writesAndReadsThroughANonBlockingPipe() throws Exception {
        byte[] content = Bytes.random(2 * 1024 * 1024 + 5, 1);
        Pipe pipe = Pipe.open();
        pipe.sink().configureBlocking(false);
        pipe.source().configureBlocking(false);
        CollectingSubscriber reader = CollectingSubscriber.all();
        ByteChannels.publisher(pipe.source(), ReadOptions.defaults().withChunkSize(8192))
                .subscribe(reader);
        long written = ByteChannels.write(pipe.sink(), TestPublishers.chunks(content, 1000), WriteOptions.defaults())
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        assertEquals(content.length, written);
        assertFalse(pipe.sink().isOpen(), "the writer closes the channel when done");
        reader.await();
        assertTrue(reader.completed);
        assertArrayEquals(content, reader.bytes());
        assertFalse(pipe.source().isOpen());
    }

    @Test
    void streamsAFileIntoASocketAndBack() throws Exception {
        byte[] content = Bytes.random(3 * 1024 * 1024, 2);
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            SocketChannel client = SocketChannel.open(server.getLocalAddress());
            SocketChannel accepted = server.accept();
            CollectingSubscriber received = CollectingSubscriber.all();
            ByteChannels.publisher(accepted).subscribe(received);
            ByteChannels.write(client, TestPublishers.chunks(content, 4096), WriteOptions.defaults())
                    .toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
            received.await();
            assertArrayEquals(content, received.bytes());
        }
    }

    @Test
    void aRangedChannelReadSizesTheLastChunkToTheRangeAndStopsReadingAtItsEnd() throws Exception {
        byte[] content = Bytes.random(100, 5);
        AtomicInteger readsAfterTheRange = new AtomicInteger();
        ReadableByteChannel channel = new ReadableByteChannel() {
            private int position;
            private boolean open = true;

            @Override
            public int read(ByteBuffer dst) {
                if (position >= 50) { // offset 10 + length 40: the range is over
                    readsAfterTheRange.incrementAndGet();
                }
                int n = Math.min(dst.remaining(), content.length - position);
                dst.put(content, position, n);
                position += n;
                return n;
            }

            @Override
            public boolean isOpen() {
                return open;
            }

            @Override
            public void close() {
                open = false;
            }
        };
        CollectingSubscriber subscriber = CollectingSubscriber.all();
        ByteChannels.publisher(channel, ReadOptions.range(10, 40)).subscribe(subscriber);
        subscriber.await();
        assertTrue(subscriber.completed);
        assertEquals(1, subscriber.chunks.size(), "one chunk for a 40-byte range");
        assertEquals(40, subscriber.chunks.get(0).capacity(), "sized to the range, not the 64 KiB default");
        assertArrayEquals(java.util.Arrays.copyOfRange(content, 10, 50), subscriber.bytes());
        assertEquals(0, readsAfterTheRange.get(), "no read past the range just to see its end");
    }

    @Test
    void aChannelThatReturnsZeroIsWaitedOnNotSpunOn() throws Exception {
        // a non-selectable channel that has nothing for 200 ms: the back-off must keep the calls few
        AtomicInteger reads = new AtomicInteger();
        long readyAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
        ReadableByteChannel slow = new ReadableByteChannel() {
            private boolean open = true;
            private boolean sent;

            @Override
            public int read(ByteBuffer dst) {
                reads.incrementAndGet();
                if (System.nanoTime() < readyAt) {
                    return 0;
                }
                if (sent) {
                    return -1;
                }
                sent = true;
                dst.put((byte) 42);
                return 1;
            }

            @Override
            public boolean isOpen() {
                return open;
            }

            @Override
            public void close() {
                open = false;
            }
        };
        CollectingSubscriber subscriber = CollectingSubscriber.all();
        ByteChannels.publisher(slow).subscribe(subscriber);
        subscriber.await();
        assertArrayEquals(new byte[] {42}, subscriber.bytes());
        assertTrue(reads.get() < 200, "read() called " + reads.get() + " times in 200 ms: spinning");
    }

    @Test
    void aSingleUseChannelRefusesASecondSubscriber_1_11() throws Exception {
        Pipe pipe = Pipe.open();
        BytePublisher publisher = ByteChannels.publisher(pipe.source());
        CollectingSubscriber first = new CollectingSubscriber(0);
        publisher.subscribe(first);
        CollectingSubscriber second = new CollectingSubscriber(0); // refused without asking: R8
        publisher.subscribe(second);
        second.await();
        assertInstanceOf(IllegalStateException.class, second.error);
        assertTrue(second.error.getMessage().startsWith("§1.11"), second.error.getMessage());
        assertTrue(pipe.source().isOpen(), "the refused subscriber must not close the first one's channel");
        first.subscription.cancel();
        awaitClosed(pipe.source());
        pipe.sink().close();
    }

    @Test
    void aSingleUseChannelIsClosedWhenOnSubscribeThrows_2_13_R4() throws Exception {
        Pipe pipe = Pipe.open();
        ByteChannels.publisher(pipe.source()).subscribe(new ThrowingOnSubscribe()); // §2.13: taken as a cancel
        awaitClosed(pipe.source()); // R4: the library owns the channel, however the read ends
        pipe.sink().close();
    }

    @Test
    void aSingleUseChannelIsClosedWhenCancelledBeforeItsFirstRequest_R4() throws Exception {
        Pipe pipe = Pipe.open();
        CollectingSubscriber subscriber = new CollectingSubscriber(0);
        ByteChannels.publisher(pipe.source()).subscribe(subscriber);
        subscriber.subscription.cancel();
        awaitClosed(pipe.source());
        assertEquals(1, subscriber.terminated.getCount(), "a cancelled read signals nothing");
        pipe.sink().close();
    }

    @Test
    void aSingleUseChannelIsClosedWhenItsFirstRequestIsInvalid_3_9() throws Exception {
        Pipe pipe = Pipe.open();
        CollectingSubscriber subscriber = new CollectingSubscriber(0);
        ByteChannels.publisher(pipe.source()).subscribe(subscriber);
        subscriber.subscription.request(0);
        subscriber.await();
        assertInstanceOf(IllegalArgumentException.class, subscriber.error);
        assertFalse(pipe.source().isOpen(), "closed before onError (R5)");
        pipe.sink().close();
    }

    @Test
    void cancellingAReadBlockedOnASilentPeerClosesTheChannelAndFreesItsThread_R9() throws Exception {
        Pipe pipe = Pipe.open(); // blocking source, nobody writes: the read blocks
        ExecutorService reader = Executors.newSingleThreadExecutor();
        try {
            CollectingSubscriber subscriber = new CollectingSubscriber(1);
            ByteChannels.publisher(pipe.source(), ReadOptions.defaults().withExecutor(reader))
                    .subscribe(subscriber);
            Thread.sleep(100); // let the read block (the outcome is the same if not)
            subscriber.subscription.cancel();
            awaitClosed(pipe.source());
            assertEquals(
                    "free", reader.submit(() -> "free").get(10, TimeUnit.SECONDS), "the reading thread is released");
            assertEquals(
                    1,
                    subscriber.terminated.getCount(),
                    "the aborted read's AsynchronousCloseException is not signalled (§1.8)");
            assertTrue(subscriber.chunks.isEmpty());
        } finally {
            reader.shutdownNow();
            pipe.sink().close();
        }
    }

    @Test
    void aColdChannelPublisherOpensAChannelPerSubscriber() {
        AtomicInteger opened = new AtomicInteger();
        byte[] content = Bytes.random(100_000, 3);
        BytePublisher publisher = ByteChannels.publisher(
                () -> {
                    opened.incrementAndGet();
                    return java.nio.channels.Channels.newChannel(new java.io.ByteArrayInputStream(content));
                },
                ReadOptions.defaults());
        CollectingSubscriber first = CollectingSubscriber.all();
        CollectingSubscriber second = CollectingSubscriber.all();
        publisher.subscribe(first);
        publisher.subscribe(second);
        assertArrayEquals(content, first.await().bytes());
        assertArrayEquals(content, second.await().bytes());
        assertEquals(2, opened.get());
    }

    @Test
    void anOpenerFailureArrivesAsOnError() {
        IOException refused = new IOException("connection refused");
        CollectingSubscriber subscriber = CollectingSubscriber.all();
        ByteChannels.publisher(
                        () -> {
                            throw refused;
                        },
                        ReadOptions.defaults())
                .subscribe(subscriber);
        subscriber.await();
        assertEquals(refused, subscriber.error);
    }

    @Test
    void cancellingAWriteBlockedOnASlowPeerUnblocksAndClosesIt() throws Exception {
        Pipe pipe = Pipe.open(); // blocking sink, nobody reads: the write blocks
        WritableByteChannel sink = pipe.sink();
        CompletableFuture<Long> stage = ByteChannels.write(
                        sink,
                        TestPublishers.chunks(Bytes.random(8 * 1024 * 1024, 4), 64 * 1024),
                        WriteOptions.defaults())
                .toCompletableFuture();
        Thread.sleep(100); // let it fill the pipe and block
        assertFalse(stage.isDone());
        stage.cancel(true);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (sink.isOpen() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertFalse(sink.isOpen());
        pipe.source().close();
    }

    @Test
    void aNonBlockingPipeWithASilentPeerIsWaitedOnNotSpunOn() throws Exception {
        Pipe pipe = Pipe.open();
        pipe.source().configureBlocking(false);
        pipe.sink().configureBlocking(false);
        ExecutorService reader = Executors.newSingleThreadExecutor();
        try {
            long readerThread =
                    reader.submit(() -> Thread.currentThread().getId()).get(10, TimeUnit.SECONDS);
            CollectingSubscriber subscriber = CollectingSubscriber.all();
            ByteChannels.publisher(pipe.source(), ReadOptions.defaults().withExecutor(reader))
                    .subscribe(subscriber);
            java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
            long cpuBefore = threads.getThreadCpuTime(readerThread);
            Thread.sleep(500); // the peer says nothing for half a second
            long cpuMillis = (threads.getThreadCpuTime(readerThread) - cpuBefore) / 1_000_000;
            assertTrue(
                    cpuMillis < 100,
                    "the reader waited on a selector, it did not spin: " + cpuMillis + " ms CPU in 500 ms");
            pipe.sink().write(ByteBuffer.wrap(new byte[] {1, 2, 3}));
            pipe.sink().close();
            assertArrayEquals(new byte[] {1, 2, 3}, subscriber.await().bytes());
        } finally {
            reader.shutdownNow();
        }
    }

    @Test
    void aNonBlockingWriteToAPeerThatStopsReadingIsWaitedOnNotSpunOn() throws Exception {
        Pipe pipe = Pipe.open();
        pipe.sink().configureBlocking(false);
        ExecutorService writer = Executors.newSingleThreadExecutor();
        try {
            long writerThread =
                    writer.submit(() -> Thread.currentThread().getId()).get(10, TimeUnit.SECONDS);
            byte[] content = Bytes.random(4 * 1024 * 1024, 6); // far more than the pipe holds
            CompletableFuture<Long> stage = ByteChannels.write(
                            pipe.sink(),
                            TestPublishers.chunks(content, 1024),
                            WriteOptions.defaults().withExecutor(writer))
                    .toCompletableFuture();
            Thread.sleep(200); // the pipe fills; nobody reads
            java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
            long cpuBefore = threads.getThreadCpuTime(writerThread);
            Thread.sleep(500);
            long cpuMillis = (threads.getThreadCpuTime(writerThread) - cpuBefore) / 1_000_000;
            assertTrue(
                    cpuMillis < 100,
                    "the writer waited on a selector, it did not spin: " + cpuMillis + " ms CPU in 500 ms");
            assertFalse(stage.isDone());
            CollectingSubscriber drained = CollectingSubscriber.all();
            ByteChannels.publisher(pipe.source()).subscribe(drained);
            assertEquals(content.length, stage.get(30, TimeUnit.SECONDS));
            assertArrayEquals(content, drained.await().bytes());
        } finally {
            writer.shutdownNow();
        }
    }

    static void awaitClosed(Channel channel) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (channel.isOpen() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertFalse(channel.isOpen(), channel + " still open 10 s after the read ended");
    }

    @Test
    void rangesSkipLeadingBytesOnChannels() {
        byte[] content = Bytes.random(10_000, 5);
        CollectingSubscriber subscriber = CollectingSubscriber.all();
        ByteChannels.publisher(
                        java.nio.channels.Channels.newChannel(new java.io.ByteArrayInputStream(content)),
                        ReadOptions.range(1000, 2000))
                .subscribe(subscriber);
        assertArrayEquals(
                java.util.Arrays.copyOfRange(content, 1000, 3000),
                subscriber.await().bytes());
    }
}
