package io.sluice.bench;

import java.nio.ByteBuffer;

/**
 * Counts the bytes a read delivers and spot-checks them: the first and last byte of every chunk
 * must be the payload's byte at that offset (one comparison pair per chunk, so the check stays
 * negligible inside the timed part). A dropped, duplicated or reordered chunk fails the read.
 * Confined to the one thread that delivers a stream's chunks at a time (§1.3).
 */
public final class ReadCheck {

    private final long expectedBytes;
    private long received;
    private int largestChunkBytes;
    private String failure;

    /** What a complete and correct read delivered. */
    public record Delivered(long bytes, int largestChunkBytes) {
    }

    public ReadCheck(long expectedBytes) {
        this.expectedBytes = expectedBytes;
    }

    /** Checks the readable bytes of {@code chunk} without consuming them. */
    public void accept(ByteBuffer chunk) {
        int length = chunk.remaining();
        if (length > 0) {
            accept(length, chunk.get(chunk.position()), chunk.get(chunk.position() + length - 1));
        }
    }

    /** Checks a chunk of {@code length} bytes by its first and last byte. */
    public void accept(int length, byte first, byte last) {
        if (length <= 0) {
            return;
        }
        if (failure == null && (first != Payload.byteAt(received)
                || last != Payload.byteAt(received + length - 1))) {
            failure = "wrong bytes in the chunk at offset " + received;
        }
        received += length;
        largestChunkBytes = Math.max(largestChunkBytes, length);
    }

    /** What the stream delivered when it was complete and correct; throws otherwise. */
    public Delivered finish() {
        if (failure != null) {
            throw new IllegalStateException("read delivered wrong data: " + failure);
        }
        if (received != expectedBytes) {
            throw new IllegalStateException("read delivered " + received + " bytes, expected " + expectedBytes);
        }
        return new Delivered(received, largestChunkBytes);
    }
}
