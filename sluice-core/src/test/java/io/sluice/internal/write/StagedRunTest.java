package io.sluice.internal.write;

import io.sluice.WriteListener;
import io.sluice.WriteOptions;
import io.sluice.WriteSnapshot;
import io.sluice.demand.Demand;
import io.sluice.testing.Bytes;
import io.sluice.testing.TestPublishers;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A channel sink never hands a run of heap items to a gathering write: it copies them into a
 * staging buffer; and a batch holds no more items than one may (W7).
 */
class StagedRunTest {

    /** Keeps what it is written, and whether any call was handed a heap buffer. */
    private static final class RecordingChannel implements GatheringByteChannel {
        final ByteArrayOutputStream content = new ByteArrayOutputStream();
        final List<Boolean> directPerCall = new ArrayList<>(); // per write call: were all its buffers direct
        private boolean open = true;

        @Override
        public long write(ByteBuffer[] sources, int offset, int length) {
            boolean direct = true;
            long n = 0;
            for (int i = offset; i < offset + length; i++) {
                direct &= sources[i].isDirect();
                n += take(sources[i]);
            }
            directPerCall.add(direct);
            return n;
        }

        @Override
        public long write(ByteBuffer[] sources) {
            return write(sources, 0, sources.length);
        }

        @Override
        public int write(ByteBuffer source) {
            directPerCall.add(source.isDirect());
            return take(source);
        }

        private int take(ByteBuffer source) {
            int n = source.remaining();
            byte[] bytes = new byte[n];
            source.get(bytes);
            content.write(bytes, 0, n);
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
        assertTrue(new ChannelSink(channel).writeFully(items, 0, items.length));
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
}
