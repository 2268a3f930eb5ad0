package io.sluice.bench.providers;

import java.nio.ByteBuffer;
import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.LongAdder;

/**
 * The direct buffers a plain loop reuses, so that no operation allocates (and zeroes) one once the loop is warm.
 * On platform threads each thread owns one, allocated by its first operation and kept in a {@link ThreadLocal}
 * for every later one, as a careful engineer writes a blocking loop. A virtual thread runs one operation and ends,
 * so it would own a buffer for one operation only: there the buffers wait on a stack between operations, with no
 * limit, so that there are as many as operations were ever in flight at once and none is dropped.
 */
final class ReusedBuffers {

    private final int bytes;
    private final ThreadLocal<ByteBuffer> owned; // platform threads; null for virtual threads
    private final Deque<ByteBuffer> idle; // virtual threads; null for platform threads
    private final LongAdder allocated = new LongAdder();

    private ReusedBuffers(int bytes, boolean perThread) {
        this.bytes = bytes;
        this.owned = perThread ? ThreadLocal.withInitial(this::allocate) : null;
        this.idle = perThread ? null : new ConcurrentLinkedDeque<>();
    }

    /** One buffer per thread: for loops whose threads are reused. */
    static ReusedBuffers perThread(int bytes) {
        return new ReusedBuffers(bytes, true);
    }

    /** Buffers handed from one operation to the next: for loops with one virtual thread per operation. */
    static ReusedBuffers betweenOperations(int bytes) {
        return new ReusedBuffers(bytes, false);
    }

    /** A cleared buffer for the calling thread's operation; {@link #giveBack} it when the operation ends. */
    ByteBuffer take() {
        if (owned != null) {
            return owned.get().clear();
        }
        ByteBuffer buffer = idle.pollFirst();
        return buffer != null ? buffer.clear() : allocate();
    }

    /** Ends an operation's use of {@code buffer}; a thread's own buffer stays with it. */
    void giveBack(ByteBuffer buffer) {
        if (idle != null) {
            idle.offerFirst(buffer);
        }
    }

    /** How many buffers have been allocated: at most one per thread, or the peak of operations in flight. */
    long allocated() {
        return allocated.sum();
    }

    private ByteBuffer allocate() {
        allocated.increment();
        return ByteBuffer.allocateDirect(bytes);
    }
}
