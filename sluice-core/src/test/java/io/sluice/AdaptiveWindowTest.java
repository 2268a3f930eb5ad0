package io.sluice;

import io.sluice.demand.Demand;
import io.sluice.testing.Bytes;
import io.sluice.testing.TestPublishers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The adaptive window as the writer really drives it (not a scripted state): with an upstream that
 * emits inside {@code request} (always ready, like {@code Flux.generate}), the producer outpaces
 * any channel, so the window must not grow; and it never grows past what the byte cap lets the
 * writer hold. Both failed before: the drain wrote the whole queue before it asked the controller,
 * which then saw an empty queue at every eligible point and grew the window to its maximum.
 */
class AdaptiveWindowTest {

    @Test
    @Timeout(60)
    void largeItemsUnderTheByteCapKeepTheWindowAtWhatTheCapAdmits() throws Exception {
        int itemBytes = 64 * 1024;
        byte[] content = Bytes.random(128 * itemBytes, 11); // 8 MiB: eight cap-fulls
        AtomicLong largestWindow = new AtomicLong();
        WriteOptions options = WriteOptions.defaults()
                .withDemand(Demand.adaptive())
                .withListener(snapshot -> largestWindow.accumulateAndGet(snapshot.windowItems(), Math::max));

        long written = ByteChannels.write(DeviceChannel.slow(), TestPublishers.chunks(content, itemBytes), options)
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);

        assertEquals(content.length, written);
        assertEquals(
                17,
                largestWindow.get(),
                "1 MiB cap / 64 KiB items = 16 items (+ shift 1); the"
                        + " channel lagged for the whole write, yet the window grew");
    }

    @Test
    @Timeout(60)
    void anAlwaysReadyUpstreamKeepsTheWindowAtItsFloorEvenIntoAFastChannel() throws Exception {
        int itemBytes = 1024;
        byte[] content = Bytes.random(8 * 1024 * itemBytes, 12); // 8 MiB of 1 KiB items
        AtomicLong largestWindow = new AtomicLong();
        AtomicLong lastWindow = new AtomicLong();
        WriteOptions options = WriteOptions.defaults()
                .withDemand(Demand.adaptive())
                .withListener(snapshot -> {
                    largestWindow.accumulateAndGet(snapshot.windowItems(), Math::max);
                    lastWindow.set(snapshot.windowItems());
                });

        long written = ByteChannels.write(
                        DeviceChannel.discarding(), TestPublishers.chunks(content, itemBytes), options)
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);

        assertEquals(content.length, written);
        // Every batch arrives inside request(n), before anything is written: at each eligible point
        // the queue holds the batch, so rule (5) applies; the 256 KiB minimum batch (256 items) is
        // the floor it stays at. A drain that wrote everything it held before asking the controller
        // would see an empty queue at every eligible point and grow the window to the cap (1,024 items).
        assertEquals(257, lastWindow.get(), "the window after the write: floor 256 + shift 1");
        assertTrue(
                largestWindow.get() <= 257,
                "the window grew to " + largestWindow.get() + " although the upstream always outpaced the channel");
    }

    /**
     * Takes at most {@code maxBytes} per call and parks {@code parkNanos} per call: a slow device
     * (the park is its speed, not synchronisation), or with 0 a channel that takes everything at once.
     */
    private static final class DeviceChannel implements WritableByteChannel {
        private final int maxBytes;
        private final long parkNanos;
        private volatile boolean open = true;

        DeviceChannel(int maxBytes, long parkNanos) {
            this.maxBytes = maxBytes;
            this.parkNanos = parkNanos;
        }

        static DeviceChannel slow() {
            return new DeviceChannel(64 * 1024, TimeUnit.MILLISECONDS.toNanos(1));
        }

        static DeviceChannel discarding() {
            return new DeviceChannel(Integer.MAX_VALUE, 0);
        }

        @Override
        public int write(ByteBuffer source) {
            int bytes = Math.min(source.remaining(), maxBytes);
            if (parkNanos > 0) {
                LockSupport.parkNanos(parkNanos);
            }
            source.position(source.position() + bytes);
            return bytes;
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
}
