package io.sluice.s3.internal;

import software.amazon.awssdk.core.async.AsyncRequestBody;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * One part being filled, then sent: the blocks of {@link PartBuffers} holding its bytes, in order,
 * and the CRC32C of those bytes, computed from the items as they are copied in (O11). Its size is
 * fixed when it starts (O7); blocks are added only as bytes arrive. Drain-confined, and while a call
 * sends it, its blocks are neither changed nor reused until the call has ended.
 */
final class Part {

    private final long sizeBytes; // the size it is filled to, unless the body ends first
    private final List<ByteBuffer> blocks = new ArrayList<>(); // filled in order; all but the last full
    private final CRC32C crc; // of the bytes copied in so far, read from the items; null if none is sent (O11)
    private long length; // bytes copied in so far

    Part(long sizeBytes, boolean checksummed) {
        this.sizeBytes = sizeBytes;
        this.crc = checksummed ? new CRC32C() : null;
    }

    /** Copies as much of {@code item} as fits, taking blocks from {@code buffers} as needed; moves its position. */
    void fill(ByteBuffer item, PartBuffers buffers) {
        while (item.hasRemaining() && length < sizeBytes) {
            ByteBuffer last = blocks.isEmpty() ? null : blocks.get(blocks.size() - 1);
            if (last == null || !last.hasRemaining()) {
                last = buffers.take(sizeBytes - length);
                blocks.add(last);
            }
            int count = Math.min(item.remaining(), last.remaining());
            ByteBuffer slice = item.duplicate();
            slice.limit(slice.position() + count);
            if (crc != null) {
                crc.update(slice.duplicate()); // O11: read from the item, before the copy
            }
            last.put(slice);
            item.position(item.position() + count);
            length += count;
        }
    }

    boolean isFull() {
        return length == sizeBytes;
    }

    long length() {
        return length;
    }

    /**
     * The CRC32C of the bytes copied in, as S3's {@code x-amz-checksum-crc32c} carries it (base64,
     * big-endian), or {@code null} for a part made without one (which a request then omits).
     */
    String checksumCrc32c() {
        return crc == null ? null : Crc32c.header(crc);
    }

    /**
     * The bytes as a request body of known length, over the blocks themselves (no copy): each send
     * (a retry resends) reads views of them.
     */
    AsyncRequestBody body() {
        ByteBuffer[] views = new ByteBuffer[blocks.size()];
        for (int i = 0; i < views.length; i++) {
            views[i] = blocks.get(i).duplicate().flip();
        }
        return AsyncRequestBody.fromByteBuffersUnsafe(views);
    }

    /** Gives every block back; the part is empty after. */
    void release(PartBuffers buffers) {
        for (ByteBuffer block : blocks) {
            buffers.giveBack(block);
        }
        blocks.clear();
        if (crc != null) {
            crc.reset();
        }
        length = 0;
    }
}
