package io.sluice.examples.spring;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The leak check itself: a buffer never released, and a failed double release, are both reported. */
@ExtendWith(LeakReports.class)
class LeakReportsTest {

    @Test
    void aBufferNeverReleasedIsReported() throws Exception {
        leak();
        // The leak's weak reference and drain's sentinel are cleared by the same collection but
        // enqueued one after the other, so the report may need another round; a real leak found
        // late fails the next test's check instead.
        List<String> reports = LeakReports.drain();
        for (int round = 0; reports.isEmpty() && round < 20; round++) {
            reports = LeakReports.drain();
        }
        assertEquals(1, reports.size(), reports::toString);
        assertTrue(reports.get(0).startsWith("LEAK: ByteBuf"), reports::toString);
    }

    @Test
    void aDoubleReleaseLoggedIsReported() throws Exception {
        ByteBuf buffer = PooledByteBufAllocator.DEFAULT.directBuffer(8);
        buffer.release();
        try {
            buffer.release();
        } catch (RuntimeException e) {
            LoggerFactory.getLogger(LeakReportsTest.class).warn("released twice", e);
        }
        List<String> reports = LeakReports.drain();
        assertEquals(1, reports.size(), reports::toString);
        assertTrue(reports.get(0).contains("IllegalReferenceCountException"), reports::toString);
    }

    private static void leak() {
        PooledByteBufAllocator.DEFAULT.directBuffer(8).writeLong(42);
    }
}
