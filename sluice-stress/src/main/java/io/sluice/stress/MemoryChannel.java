package io.sluice.stress;

import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.WritableByteChannel;
import java.nio.channels.spi.AbstractInterruptibleChannel;

/**
 * An in-memory channel that closes the way a JDK {@code FileChannel} does: {@code close()} waits
 * for a write in flight, and no write starts once it is closed. It records how many bytes reached
 * it, and how many reached it after a dependent of the stage saw the write cancelled.
 */
final class MemoryChannel extends AbstractInterruptibleChannel implements WritableByteChannel {

    private int bytes; // under this channel's monitor
    private int bytesAfterCancelSeen; // under this channel's monitor
    private volatile boolean cancelSeen; // the stage's dependent -> writer

    @Override
    public synchronized int write(ByteBuffer source) throws ClosedChannelException {
        if (!isOpen()) {
            throw new ClosedChannelException();
        }
        int n = source.remaining();
        source.position(source.limit());
        bytes += n;
        if (cancelSeen) {
            bytesAfterCancelSeen += n;
        }
        return n;
    }

    @Override
    protected synchronized void implCloseChannel() {
        // synchronized: waits for a write in flight, as FileChannelImpl waits for its I/O threads
    }

    /** Called by a dependent of the stage that found it cancelled. */
    void cancelSeen() {
        cancelSeen = true;
    }

    synchronized int bytes() {
        return bytes;
    }

    synchronized int bytesAfterCancelSeen() {
        return bytesAfterCancelSeen;
    }
}
