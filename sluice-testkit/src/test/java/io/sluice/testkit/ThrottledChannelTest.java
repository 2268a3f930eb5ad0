package io.sluice.testkit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.Channels;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ThrottledChannelTest {

    private static final double ONE_MIB_PER_SECOND = 1024.0 * 1024.0;

    @TempDir
    Path dir;

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
        assertEquals(1_000_000_000L, clock.sleptNanos(), 1_000);   // 1 MiB at 1 MiB/s
    }

    @Test
    void idleTimeEarnsNoCredit() throws Exception {
        ManualClock clock = new ManualClock();
        ThrottledChannel channel = new ThrottledChannel(mibPerSecond(1), clock);
        channel.write(ByteBuffer.allocate(1024));
        clock.advance(5_000_000_000L);                              // idle for 5 s
        long before = clock.sleptNanos();
        channel.write(ByteBuffer.allocate(1024));
        assertEquals(1_000_000_000L / 1024, clock.sleptNanos() - before, 1_000);
    }

    @Test
    void oversleepIsPaidBack() {
        Pacer pacer = new Pacer(mibPerSecond(1), 0);
        long first = pacer.reserve(0, 1024 * 1024);                   // ends at 1 s
        pacer.woke(first, first + 3_000_000);                        // woke 3 ms late
        long second = pacer.reserve(first + 3_000_000, 1024 * 1024);
        assertEquals(2_000_000_000L, second, 1_000);                 // still ends at 2 s
    }

    @Test
    void closeWakesAParkedWriter() throws Exception {
        CountDownLatch parked = new CountDownLatch(1);
        ThrottledChannel channel = new ThrottledChannel(mibPerSecond(0.001),  // ~1000 s per MiB
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

    @Test
    void aDecoratorForwardsEveryByteInOrderNeverMoreThanOneCallAheadOfTheSchedule() throws Exception {
        ManualClock clock = new ManualClock();
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        ThrottledChannel channel = new ThrottledChannel(mibPerSecond(1), clock,
                Channels.newChannel(received));
        byte[] payload = randomBytes(1024 * 1024 + 17);
        ByteBuffer[] items = {ByteBuffer.wrap(payload, 0, 300_000),
                ByteBuffer.wrap(payload, 300_000, payload.length - 300_000)};
        while (items[1].hasRemaining()) {
            long n = channel.write(items);
            // A call hands over at most its maximum and returns once the schedule has carried it: so
            // the delegate is never more than one call ahead of the schedule.
            assertTrue(n > 0 && n <= ThrottledChannel.MAX_BYTES_PER_WRITE, "a call takes at most its maximum: " + n);
            long carriedBytes = (long) Math.ceil(clock.nanoTime() / 1e9 * ONE_MIB_PER_SECOND);
            assertTrue(received.size() <= carriedBytes + 1,
                    received.size() + " bytes returned by " + clock.nanoTime() + " ns, ahead of the schedule");
        }
        assertArrayEquals(payload, received.toByteArray());
        assertEquals(payload.length, channel.writtenBytes());
        assertTrue(clock.sleptNanos() >= 999_000_000L, "1 MiB at 1 MiB/s takes a second: " + clock.sleptNanos());
    }

    @Test
    void aShortWriteOfTheDelegateIsAShortWriteOfTheDecoratorAndOnlyItsBytesArePaced() throws Exception {
        ManualClock clock = new ManualClock();
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        WritableByteChannel takesAtMost1000 = new WritableByteChannel() {
            private final WritableByteChannel target = Channels.newChannel(received);

            @Override
            public int write(ByteBuffer source) throws java.io.IOException {
                ByteBuffer part = source.slice(source.position(), Math.min(source.remaining(), 1000));
                int n = target.write(part);
                source.position(source.position() + n);
                return n;
            }

            @Override
            public boolean isOpen() {
                return target.isOpen();
            }

            @Override
            public void close() throws java.io.IOException {
                target.close();
            }
        };
        ThrottledChannel channel = new ThrottledChannel(mibPerSecond(1), clock, takesAtMost1000);
        byte[] payload = randomBytes(4096);
        ByteBuffer first = ByteBuffer.wrap(payload, 0, 2048);
        ByteBuffer second = ByteBuffer.wrap(payload, 2048, 2048);

        assertEquals(1000, channel.write(new ByteBuffer[] {first, second}));
        assertEquals(1000, first.position());
        assertEquals(2048, second.position(), "the second buffer is untouched after a short write");
        long nanosFor1000Bytes = (long) (1000 / ONE_MIB_PER_SECOND * 1e9);
        assertTrue(clock.sleptNanos() <= nanosFor1000Bytes + 1_000,
                "paced for the 1000 bytes the delegate took, not the 4096 offered: " + clock.sleptNanos());
        while (second.hasRemaining()) {
            channel.write(new ByteBuffer[] {first, second});
        }
        assertArrayEquals(payload, received.toByteArray());
    }

    @Test
    void aDecoratedFileChannelReceivesTheBytesNoFasterThanTheSchedule() throws Exception {
        Path file = dir.resolve("paced.bin");
        byte[] payload = randomBytes(768 * 1024);
        double bytesPerSecond = 4 * ONE_MIB_PER_SECOND;
        long started = System.nanoTime();
        try (ThrottledChannel channel = new ThrottledChannel(mibPerSecond(4), PacingClock.system(),
                FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE))) {
            ByteBuffer source = ByteBuffer.wrap(payload);
            while (source.hasRemaining()) {
                channel.write(source);
            }
        }
        long elapsedNanos = System.nanoTime() - started;

        assertArrayEquals(payload, Files.readAllBytes(file));
        long scheduleNanos = (long) (payload.length / bytesPerSecond * 1e9);          // 187.5 ms
        long earlyNanos = PacingClock.SystemClock.MIN_PARK_NANOS;                     // a wait too short to park
        assertTrue(elapsedNanos >= scheduleNanos - earlyNanos,
                "768 KiB at 4 MiB/s took " + elapsedNanos + " ns, under the schedule's " + scheduleNanos);
    }

    @Test
    void closingTheDecoratorClosesTheDelegateAndWakesAParkedWriter() throws Exception {
        CountDownLatch parked = new CountDownLatch(1);
        FileChannel delegate = FileChannel.open(dir.resolve("closed.bin"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        ThrottledChannel channel = new ThrottledChannel(mibPerSecond(0.001),   // ~1000 s per MiB
                signallingClock(parked), delegate);
        FutureTask<Long> write = new FutureTask<>(() -> channel.write(new ByteBuffer[] {ByteBuffer.allocate(4096)}));
        Thread writer = new Thread(write, "throttled-writer");
        writer.start();
        assertTrue(parked.await(10, TimeUnit.SECONDS));
        assertEquals(4096, delegate.size(), "the bytes reach the delegate before the wait");

        channel.close();

        ExecutionException failure = assertThrows(ExecutionException.class, () -> write.get(10, TimeUnit.SECONDS));
        assertInstanceOf(AsynchronousCloseException.class, failure.getCause());
        assertFalse(delegate.isOpen(), "closing the decorator closes its delegate");
        writer.join(10_000);
        assertFalse(writer.isAlive());
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

    private static byte[] randomBytes(int size) {
        byte[] bytes = new byte[size];
        new SplittableRandom(size).nextBytes(bytes);
        return bytes;
    }
}
