package io.sluice.lab;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ThrottledSinkTest {

    private static final long SECOND = 1_000_000_000L;

    /** A clock that stands still and records the deadlines it is asked to sleep until. */
    private static final class StillClock implements PacingClock {
        final List<Long> deadlines = new ArrayList<>();

        @Override
        public long nanoTime() {
            return 0;
        }

        @Override
        public void sleepUntil(long deadlineNanos, BooleanSupplier stop) {
            deadlines.add(deadlineNanos);
        }
    }

    @Test
    void channelsOfOneSinkShareItsBudget() throws Exception {
        StillClock clock = new StillClock();
        ThrottledSink sink = new ThrottledSink(Schedule.constant(1024), clock, 1024);
        ThrottledChannel first = sink.channel();
        ThrottledChannel second = sink.channel();
        assertEquals(1024, first.write(ByteBuffer.allocate(1024)));
        assertEquals(1024, second.write(ByteBuffer.allocate(1024)));
        assertEquals(
                List.of(SECOND, 2 * SECOND),
                clock.deadlines,
                "the second channel's bytes are booked after the first's, at the same instant");
        assertEquals(1024, first.writtenBytes());
        assertEquals(1024, second.writtenBytes());
    }

    @Test
    void channelsOfSeparateSinksDoNotWaitForEachOther() throws Exception {
        StillClock clock = new StillClock();
        new ThrottledSink(Schedule.constant(1024), clock, 1024).channel().write(ByteBuffer.allocate(1024));
        new ThrottledSink(Schedule.constant(1024), clock, 1024).channel().write(ByteBuffer.allocate(1024));
        assertEquals(List.of(SECOND, SECOND), clock.deadlines);
    }

    @Test
    void aWriteTakesAtMostTheSinksLimit() throws Exception {
        ThrottledSink sink = new ThrottledSink(Schedule.constant(1e12), new StillClock(), 4096);
        ByteBuffer source = ByteBuffer.allocate(10_000);
        assertEquals(4096, sink.channel().write(source), "a short write");
        assertEquals(10_000 - 4096, source.remaining());
    }
}
