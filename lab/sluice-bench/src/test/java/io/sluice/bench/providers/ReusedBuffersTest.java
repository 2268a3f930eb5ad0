package io.sluice.bench.providers;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The loops' reused direct buffers: allocated once per thread (or per operation in flight), then only reused. */
class ReusedBuffersTest {

    @Test
    void aThreadGetsItsOwnBufferBackOnEveryOperationAndAnotherThreadAnother() throws Exception {
        ReusedBuffers buffers = ReusedBuffers.perThread(4096);
        ByteBuffer first = buffers.take();
        first.put((byte) 1);
        buffers.giveBack(first);
        ByteBuffer second = buffers.take();
        buffers.giveBack(second);

        assertSame(first, second, "the thread's second operation reuses its buffer");
        assertEquals(0, second.position(), "and gets it cleared");
        assertEquals(4096, second.remaining());
        assertTrue(second.isDirect());
        assertEquals(1, buffers.allocated());

        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            ByteBuffer elsewhere =
                    CompletableFuture.supplyAsync(buffers::take, other).get(10, TimeUnit.SECONDS);
            ByteBuffer elsewhereAgain =
                    CompletableFuture.supplyAsync(buffers::take, other).get(10, TimeUnit.SECONDS);
            assertNotSame(first, elsewhere, "another thread has a buffer of its own");
            assertSame(elsewhere, elsewhereAgain);
        } finally {
            other.shutdownNow();
        }
        assertEquals(2, buffers.allocated(), "one per thread, whatever the number of operations");
    }

    @Test
    void betweenOperationsABufferGivenBackIsTakenAgainAndOnlyOverlappingOperationsAllocate() {
        ReusedBuffers buffers = ReusedBuffers.betweenOperations(4096);
        ByteBuffer first = buffers.take();
        ByteBuffer overlapping = buffers.take(); // two operations in flight at once
        assertNotSame(first, overlapping);
        buffers.giveBack(first);
        buffers.giveBack(overlapping);
        for (int operation = 0; operation < 100; operation++) {
            ByteBuffer buffer = buffers.take();
            buffer.put((byte) 1);
            assertTrue(buffer == first || buffer == overlapping, "operation " + operation);
            buffers.giveBack(buffer);
        }
        assertEquals(0, buffers.take().position(), "a buffer taken again is cleared");
        assertEquals(2, buffers.allocated(), "as many as were ever in flight at once");
    }
}
