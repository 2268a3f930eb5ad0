package io.sluice.server.ws;

import java.nio.ByteBuffer;
import java.time.Instant;

/**
 * The layout of one fan-out message, shared by the generator and the load client: a sequence
 * number (bytes 0-7, from 0 per client), the send time in nanoseconds since the epoch (bytes
 * 8-15), then filler up to {@link #BYTES}.
 */
public final class Message {

    /** Every message's size, the seed's "about 250 bytes". */
    public static final int BYTES = 250;

    private Message() {}

    /** A new message, position 0, limit {@link #BYTES}; {@code sentEpochNanos} from {@link #nowEpochNanos()}. */
    public static ByteBuffer encode(long sequence, long sentEpochNanos) {
        ByteBuffer message = ByteBuffer.allocate(BYTES);
        message.putLong(0, sequence).putLong(8, sentEpochNanos);
        return message;
    }

    /** The sequence number of a message, read without moving its position. */
    public static long sequence(ByteBuffer message) {
        return message.getLong(message.position());
    }

    /** The send time of a message, read without moving its position. */
    public static long sentEpochNanos(ByteBuffer message) {
        return message.getLong(message.position() + 8);
    }

    /**
     * The wall clock in nanoseconds since the epoch: the generator and the load client run in two
     * JVMs on one machine, so a monotonic clock of one JVM would not compare with the other's.
     */
    public static long nowEpochNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
}
