package io.sluice;

import io.sluice.testing.Bytes;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whatever the pattern of writes into a pipe, the publisher over it (as a channel or as a stream)
 * delivers each write before the writer sends the next one, never emits an empty chunk or one
 * larger than the chunk size, and its chunks concatenate to exactly the bytes written.
 */
class PromptChunksPropertyTest {

    @Property(tries = 40)
    void everyWriteIsDeliveredBeforeTheNextAndTheChunksAreExact(
            @ForAll @Size(min = 1, max = 12) List<@IntRange(min = 1, max = 20_000) Integer> writes,
            @ForAll @IntRange(min = 1, max = 70_000) int chunkSize,
            @ForAll boolean oneRequestAtATime,
            @ForAll boolean asStream)
            throws Exception {
        Pipe pipe = Pipe.open();
        CollectingSubscriber subscriber =
                oneRequestAtATime ? CollectingSubscriber.oneAtATime() : CollectingSubscriber.all();
        ReadOptions options = ReadOptions.defaults().withChunkSize(chunkSize);
        BytePublisher publisher = asStream
                ? ByteStreams.publisher(Channels.newInputStream(pipe.source()), options)
                : ByteChannels.publisher(pipe.source(), options);
        publisher.subscribe(subscriber);
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        try (Pipe.SinkChannel sink = pipe.sink()) {
            for (int i = 0; i < writes.size(); i++) {
                byte[] piece = Bytes.random(writes.get(i), i);
                ByteBuffer buffer = ByteBuffer.wrap(piece);
                while (buffer.hasRemaining()) {
                    sink.write(buffer);
                }
                written.write(piece);
                assertTrue(
                        subscriber.awaitBytes(written.size(), 10, TimeUnit.SECONDS),
                        "write " + i + " of "
                                + piece.length + " bytes not delivered; received " + subscriber.receivedBytes() + " of "
                                + written.size());
            }
        }
        assertTrue(subscriber.terminated.await(10, TimeUnit.SECONDS), "no terminal signal");
        assertNull(subscriber.error);
        for (ByteBuffer chunk : subscriber.chunks) {
            int n = chunk.remaining();
            assertTrue(n > 0 && n <= chunkSize, "a chunk of " + n + " bytes with chunk size " + chunkSize);
        }
        assertArrayEquals(written.toByteArray(), subscriber.bytes());
    }
}
