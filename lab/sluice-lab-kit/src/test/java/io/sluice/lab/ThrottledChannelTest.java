package io.sluice.lab;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ThrottledChannelTest {

    private static final double ONE_MIB_PER_SECOND = 1024.0 * 1024.0;

    @Test
    void writesTakeAsLongAsTheScheduleSays() throws Exception {
        ManualClock clock = new ManualClock();
        ThrottledChannel channel = new ThrottledChannel(mibPerSecond(1), clock);
        ByteBuffer[] items = {ByteBuffer.allocate(512 * 1024), ByteBuffer.allocate(512 * 1024)};
        long total = 0;
        while (items[1].hasRemaining()) {
            long n = channel.write(items);
            assertTrue(n <= ThrottledChannel.MAX_BYTES_PER_WRITE, "a call takes at most its maximum: " + n);
            total += n;
        }
        assertEquals(1024 * 1024, total);
        assertEquals(1024 * 1024, channel.writtenBytes());
        assertEquals(1_000_000_000L, clock.sleptNanos(), 1_000); // 1 MiB at 1 MiB/s
    }

    @Test
    void idleTimeEarnsNoCredit() throws Exception {
        ManualClock clock = new ManualClock();
        ThrottledChannel channel = new ThrottledChannel(mibPerSecond(1), clock);
        channel.write(ByteBuffer.allocate(1024));
        clock.advance(5_000_000_000L); // idle for 5 s
        long before = clock.sleptNanos();
        channel.write(ByteBuffer.allocate(1024));
        assertEquals(1_000_000_000L / 1024, clock.sleptNanos() - before, 1_000);
    }

    @Test
    void oversleepIsPaidBack() {
        Pacer pacer = new Pacer(mibPerSecond(1), 0);
        long first = pacer.reserve(0, 1024 * 1024); // ends at 1 s
        pacer.woke(first, first + 3_000_000); // woke 3 ms late
        long second = pacer.reserve(first + 3_000_000, 1024 * 1024);
        assertEquals(2_000_000_000L, second, 1_000); // still ends at 2 s
    }

    @Test
    void closeWakesAParkedWriter() throws Exception {
        CountDownLatch parked = new CountDownLatch(1);
        ThrottledChannel channel = new ThrottledChannel(
                mibPerSecond(0.001), // ~1000 s per MiB
                signallingClock(parked));
        FutureTask<Long> write = new FutureTask<>(() -> channel.write(new ByteBuffer[] {ByteBuffer.allocate(4096)}));
        Thread writer = new Thread(write, "throttled-writer");
        writer.start();
        assertTrue(parked.await(10, TimeUnit.SECONDS));
        channel.close();
        ExecutionException failure = assertThrows(ExecutionException.class, () -> write.get(10, TimeUnit.SECONDS));
        assertInstanceOf(AsynchronousCloseException.class, failure.getCause());
        writer.join(10_000);
        assertFalse(writer.isAlive());
        assertEquals(0, channel.writtenBytes());
        assertTrue(channel.awaitClosed(0, TimeUnit.SECONDS));
        assertThrows(ClosedChannelException.class, () -> channel.write(ByteBuffer.allocate(1)));
    }

    private static Schedule mibPerSecond(double mib) {
        return Schedule.constant(mib * ONE_MIB_PER_SECOND);
    }

    /** The real clock, counting {@code parked} down when a writer starts to wait. */
    private static PacingClock signallingClock(CountDownLatch parked) {
        return new PacingClock() {
            @Override
            public long nanoTime() {
                return System.nanoTime();
            }

            @Override
            public void sleepUntil(long deadlineNanos, BooleanSupplier stop) {
                parked.countDown();
                PacingClock.system().sleepUntil(deadlineNanos, stop);
            }
        };
    }
}
