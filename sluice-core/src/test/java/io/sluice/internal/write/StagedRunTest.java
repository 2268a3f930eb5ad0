package io.sluice.internal.write;

import io.sluice.WriteListener;
import io.sluice.WriteOptions;
import io.sluice.WriteSnapshot;
import io.sluice.demand.Demand;
import io.sluice.demand.DemandController;
import io.sluice.demand.DemandState;
import io.sluice.demand.DemandStrategy;
import io.sluice.testing.Bytes;
import io.sluice.testing.TestPublishers;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A channel sink never hands a run of heap items to a gathering write: it copies them into a
 * staging buffer; and a batch holds no more items than one may (W7).
 */
class StagedRunTest {

    /** A file, as far as the sink can tell, that keeps what it is written and how each call was handed it. */
    private static final class RecordingChannel extends WriteOnlyFileChannel {
        final ByteArrayOutputStream content = new ByteArrayOutputStream();
        final List<Boolean> directPerCall = new ArrayList<>(); // per write call: were all its buffers direct
        final List<Long> bytesPerCall = new ArrayList<>();

        @Override
        public long write(ByteBuffer[] sources, int offset, int length) {
            boolean direct = true;
            long n = 0;
            for (int i = offset; i < offset + length; i++) {
                direct &= sources[i].isDirect();
                n += take(sources[i]);
            }
            directPerCall.add(direct);
            bytesPerCall.add(n);
            return n;
        }

        @Override
        public int write(ByteBuffer source) {
            directPerCall.add(source.isDirect());
            int n = take(source);
            bytesPerCall.add((long) n);
            return n;
        }

        private int take(ByteBuffer source) {
            int n = source.remaining();
            byte[] bytes = new byte[n];
            source.get(bytes);
            content.write(bytes, 0, n);
            return n;
        }
    }

    private static long write(Publisher<ByteBuffer> upstream, RecordingChannel channel, WriteOptions options)
            throws Exception {
        ChannelWriteSubscriber writer = new ChannelWriteSubscriber(
                new ChannelSink(channel), options.withExecutor(Runnable::run), Runnable::run, "recording channel");
        upstream.subscribe(writer);
        return writer.result().get(10, TimeUnit.SECONDS);
    }

    @Test
    void heapItemsBesideADirectOneAreStagedNotGathered() throws Exception {
        byte[] content = Bytes.random(3 * 1024 + 100, 3);
        ByteBuffer direct = ByteBuffer.allocateDirect(100).put(content, 0, 100).flip();
        ByteBuffer[] items = {
            direct,
            ByteBuffer.wrap(content, 100, 1024),
            ByteBuffer.wrap(content, 1124, 1024),
            ByteBuffer.wrap(content, 2148, 1024)
        };
        RecordingChannel channel = new RecordingChannel();
        ChannelSink sink = new ChannelSink(channel);
        assertTrue(sink.writeFully(items, 0, items.length));
        assertTrue(sink.flush());
        assertArrayEquals(content, channel.content.toByteArray());
        assertFalse(
                channel.directPerCall.contains(false),
                "a write call was handed heap buffers: " + channel.directPerCall);
    }

    @Test
    void aBatchHoldsNoMoreItemsThanOneMayTake_W7() throws Exception {
        byte[] content = Bytes.random(3 * WriteLedger.MAX_BATCH_ITEMS + 5, 11);
        List<Long> writtenAfterEachBatch = new ArrayList<>();
        WriteListener listener = new WriteListener() {
            @Override
            public void onPass(WriteSnapshot snapshot) {
                writtenAfterEachBatch.add(snapshot.writtenItems());
            }
        };
        RecordingChannel channel = new RecordingChannel();
        // one-byte items, all requested at once: they would fit one staging buffer many times over
        long written = write(
                TestPublishers.chunks(content, 1),
                channel,
                WriteOptions.defaults()
                        .withDemand(Demand.fixed(content.length, 0))
                        .withListener(listener));
        assertEquals(content.length, written);
        assertArrayEquals(content, channel.content.toByteArray());
        long previous = 0;
        for (long items : writtenAfterEachBatch) {
            assertTrue(items - previous <= WriteLedger.MAX_BATCH_ITEMS, "a batch of " + (items - previous) + " items");
            previous = items;
        }
        assertEquals(content.length, previous);
    }

    @Test
    void aStreamOfSmallItemsReachesTheChannelInWholeStagingBuffers_ST2() throws Exception {
        // 1 KiB items: the writer's first requests are small, so batches end at sizes that are no
        // multiple of the staging buffer; a write per batch would leave every later write misaligned
        assertWrittenInWholeStagingBuffers(10 * StagingBuffers.STAGING_BYTES + 300, 1024);
    }

    @Test
    void aChannelThatIsNoFileHasEachBatchBeforeTheStrategyIsAsked_ST4() throws Exception {
        ByteArrayOutputStream target = new ByteArrayOutputStream();
        assertEachBatchInTheChannelWhenTheStrategyIsAsked(Channels.newChannel(target), target);
    }

    @Test
    void aFileChannelThatCannotSeekIsAStreamToo_ST4() throws Exception {
        // a FIFO or a terminal opened as a FileChannel: its reader sees a stream
        ByteArrayOutputStream target = new ByteArrayOutputStream();
        WriteOnlyFileChannel pipe = new WriteOnlyFileChannel() {
            @Override
            public int write(ByteBuffer source) {
                int n = source.remaining();
                byte[] bytes = new byte[n];
                source.get(bytes);
                target.write(bytes, 0, n);
                return n;
            }

            @Override
            public long position() throws IOException {
                throw new IOException("Illegal seek");
            }
        };
        assertEachBatchInTheChannelWhenTheStrategyIsAsked(pipe, target);
    }

    /** 1 KiB heap items are staged; the strategy judges the channel's pace by what it has taken when asked. */
    private static void assertEachBatchInTheChannelWhenTheStrategyIsAsked(
            WritableByteChannel channel, ByteArrayOutputStream target) throws Exception {
        int itemBytes = 1024;
        byte[] content = Bytes.random(200 * itemBytes, 31);
        List<String> heldBack = new ArrayList<>();
        DemandStrategy checking = () -> new DemandController() {
            private final DemandController adaptive = Demand.adaptive().newController();

            @Override
            public long nextRequest(DemandState state) {
                long counted = state.writtenItems() * itemBytes;
                if (counted != target.size()) {
                    heldBack.add(counted + " bytes counted as written, " + target.size() + " in the channel");
                }
                return adaptive.nextRequest(state);
            }

            @Override
            public long windowItems() {
                return adaptive.windowItems();
            }

            @Override
            public String describe() {
                return "adaptive, checked";
            }
        };
        ChannelWriteSubscriber writer = new ChannelWriteSubscriber(
                new ChannelSink(channel),
                WriteOptions.defaults().withDemand(checking).withExecutor(Runnable::run),
                Runnable::run,
                "stream channel");

        TestPublishers.chunks(content, itemBytes).subscribe(writer);

        assertEquals(content.length, writer.result().get(10, TimeUnit.SECONDS));
        assertArrayEquals(content, target.toByteArray());
        assertEquals(List.of(), heldBack);
    }

    @Test
    void aCapSmallerThanTheStagingBufferHoldsWhileTheWriterAsksForOneItemAtATime_W4() throws Exception {
        // 1 KiB items under a 16 KiB cap, their size declared: once the staged bytes fill the cap,
        // the writer has nothing queued or outstanding, and the one item that keeps it from
        // stalling must wait until they are written
        int itemBytes = 1024;
        long cap = 16 * 1024;
        byte[] content = Bytes.random(1024 * itemBytes, 37);
        RecordingChannel channel = new RecordingChannel();
        AtomicLong mostHeld = new AtomicLong();
        Publisher<ByteBuffer> onRequest = emittingInsideRequest(content, itemBytes, channel, mostHeld);

        long written = write(
                onRequest,
                channel,
                WriteOptions.defaults().withMaxQueuedBytes(cap).withMaxItemBytes(itemBytes));

        assertEquals(content.length, written);
        assertArrayEquals(content, channel.content.toByteArray());
        assertTrue(mostHeld.get() <= cap, "bytes received and not in the channel: " + mostHeld.get());
    }

    @Test
    void aStagingBufferIsOutOfThePoolOnlyWhileAPassRuns_ST3() throws Exception {
        // sixteen long writes of small items on two threads: each pass yields (W7) to the others
        // queued behind it; a write queued with a staging buffer would hold it while it waits
        int writes = 16;
        byte[] content = Bytes.random((int) (3 * WriteLedger.YIELD_AFTER_ITEMS * 1000), 23);
        ExecutorService twoThreads = Executors.newFixedThreadPool(2);
        int takenBefore = StagingBuffers.DIRECT.taken();
        AtomicInteger mostTaken = new AtomicInteger();
        WriteListener sampling = snapshot -> mostTaken.accumulateAndGet(StagingBuffers.DIRECT.taken(), Math::max);
        try {
            List<ChannelWriteSubscriber> running = new ArrayList<>();
            for (int i = 0; i < writes; i++) {
                ChannelWriteSubscriber writer = new ChannelWriteSubscriber(
                        new ChannelSink(new DiscardingChannel()),
                        WriteOptions.defaults().withExecutor(twoThreads).withListener(sampling),
                        twoThreads,
                        "discarding channel " + i);
                TestPublishers.chunks(content, 1000).subscribe(writer);
                running.add(writer);
            }
            for (ChannelWriteSubscriber writer : running) {
                assertEquals(content.length, writer.result().get(60, TimeUnit.SECONDS));
            }
        } finally {
            twoThreads.shutdownNow();
        }
        int most = mostTaken.get() - takenBefore;
        assertTrue(most <= 2, "staging buffers out of the pool at once: " + most);
        assertEquals(takenBefore, StagingBuffers.DIRECT.taken(), "every staging buffer went back");
    }

    @Test
    void bytesHeldBackInTheStagingBufferCountAgainstTheByteCap_W4() throws Exception {
        // 40 KiB heap items under a 512 KiB cap: after a batch of 12 of them, 224 KiB wait in the
        // staging buffer, taken from the queue but not in the channel
        int itemBytes = 40 * 1024;
        long cap = 512 * 1024;
        byte[] content = Bytes.random(64 * itemBytes, 29);
        RecordingChannel channel = new RecordingChannel();
        AtomicLong mostHeld = new AtomicLong();
        Publisher<ByteBuffer> onRequest = emittingInsideRequest(content, itemBytes, channel, mostHeld);

        long written = write(onRequest, channel, WriteOptions.defaults().withMaxQueuedBytes(cap));

        assertEquals(content.length, written);
        assertArrayEquals(content, channel.content.toByteArray());
        assertTrue(mostHeld.get() <= cap, "bytes received and not in the channel: " + mostHeld.get());
    }

    /**
     * Emits {@code content} in items of {@code itemBytes} inside each {@code request(n)}, then
     * completes; records in {@code mostHeld} the most bytes it had emitted that were not yet in
     * {@code channel}.
     */
    private static Publisher<ByteBuffer> emittingInsideRequest(
            byte[] content, int itemBytes, RecordingChannel channel, AtomicLong mostHeld) {
        int items = content.length / itemBytes;
        AtomicInteger sent = new AtomicInteger();
        return writing -> writing.onSubscribe(new Subscription() {
            @Override
            public void request(long n) {
                for (long i = 0; i < n && sent.get() < items; i++) {
                    int at = sent.getAndIncrement() * itemBytes;
                    mostHeld.accumulateAndGet((long) at + itemBytes - channel.content.size(), Math::max);
                    writing.onNext(ByteBuffer.wrap(content, at, itemBytes).slice());
                }
                if (sent.get() == items) {
                    sent.incrementAndGet();
                    writing.onComplete();
                }
            }

            @Override
            public void cancel() {}
        });
    }

    /** A file, as far as the sink can tell, that takes every byte it is given and keeps none. */
    private static final class DiscardingChannel extends WriteOnlyFileChannel {

        @Override
        public int write(ByteBuffer source) {
            int n = source.remaining();
            source.position(source.limit());
            return n;
        }
    }

    private static void assertWrittenInWholeStagingBuffers(int length, int itemBytes) throws Exception {
        byte[] content = Bytes.random(length, 17);
        RecordingChannel channel = new RecordingChannel();

        long written = write(TestPublishers.chunks(content, itemBytes), channel, WriteOptions.defaults());

        assertEquals(content.length, written);
        assertArrayEquals(content, channel.content.toByteArray());
        List<Long> sizes = channel.bytesPerCall;
        assertEquals(
                List.of((long) (length % StagingBuffers.STAGING_BYTES)),
                sizes.subList(sizes.size() - 1, sizes.size()),
                "the rest, at the end: " + sizes);
        for (long size : sizes.subList(0, sizes.size() - 1)) {
            assertEquals(StagingBuffers.STAGING_BYTES, size, "a write of another size: " + sizes);
        }
    }

    @Test
    void whatIsStagedIsWrittenBeforeTheWriteWaitsForItems_ST3() throws Exception {
        byte[] content = Bytes.random(5 * 1024, 19);
        AtomicReference<Subscriber<? super ByteBuffer>> subscriber = new AtomicReference<>();
        AtomicInteger sent = new AtomicInteger();
        Publisher<ByteBuffer> fiveThenSilence = writing -> {
            subscriber.set(writing);
            writing.onSubscribe(new Subscription() {
                @Override
                public void request(long n) {
                    for (long i = 0; i < n && sent.get() < 5; i++) {
                        int at = sent.getAndIncrement() * 1024;
                        writing.onNext(ByteBuffer.wrap(content, at, 1024).slice());
                    }
                }

                @Override
                public void cancel() {}
            });
        };
        RecordingChannel channel = new RecordingChannel();
        ChannelWriteSubscriber writer = new ChannelWriteSubscriber(
                new ChannelSink(channel),
                WriteOptions.defaults().withExecutor(Runnable::run),
                Runnable::run,
                "recording channel");

        fiveThenSilence.subscribe(writer);

        assertEquals(5, sent.get());
        assertFalse(writer.result().isDone(), "the upstream has not completed");
        assertArrayEquals(content, channel.content.toByteArray(), "held back while the write waits");
        subscriber.get().onComplete();
        assertEquals(content.length, writer.result().get(10, TimeUnit.SECONDS));
    }
}
