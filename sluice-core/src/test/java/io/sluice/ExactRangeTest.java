package io.sluice;

import io.sluice.testing.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.reactivestreams.Publisher;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ReadOptions#withExactRange()}: a source shorter than the range fails the read with an
 * {@link EOFException} instead of completing short, for files, channels and streams; a longer one
 * is read up to the range; without the option a short source completes with what it has.
 */
class ExactRangeTest {

    @TempDir
    Path dir;

    private final byte[] content = Bytes.random(100, 3);

    @Test
    void aFileShorterThanTheRangeFailsTheReadNamingIt() throws Exception {
        Path file = Files.write(dir.resolve("short"), content);
        for (ReadOptions range :
                new ReadOptions[] {ReadOptions.range(0, 200), ReadOptions.range(50, 51), ReadOptions.range(150, 10)}) {
            CollectingSubscriber exact = read(ReactiveFile.of(file).read(range.withExactRange()));
            assertInstanceOf(EOFException.class, exact.error, range.toString());
            assertTrue(exact.error.getMessage().contains(file.toString()), exact.error.getMessage());
            assertEquals(0, exact.chunks.size(), "nothing read before the shortfall was known: " + range);

            CollectingSubscriber lenient = read(ReactiveFile.of(file).read(range));
            assertNull(lenient.error, range.toString());
        }
    }

    @Test
    void aFileLongerThanTheRangeIsReadUpToTheRange() throws Exception {
        Path file = Files.write(dir.resolve("long"), content);
        CollectingSubscriber exact =
                read(ReactiveFile.of(file).read(ReadOptions.range(10, 60).withExactRange()));
        assertNull(exact.error);
        assertArrayEquals(Arrays.copyOfRange(content, 10, 70), exact.bytes());
    }

    @Test
    void aChannelOrStreamThatEndsBeforeTheRangeFailsTheRead() {
        ReadOptions range = ReadOptions.range(10, 200).withExactRange();
        CollectingSubscriber channel =
                read(ByteChannels.publisher(Channels.newChannel(new ByteArrayInputStream(content)), range));
        assertInstanceOf(EOFException.class, channel.error);
        assertTrue(channel.error.getMessage().contains("110 bytes before the end"), channel.error.getMessage());

        CollectingSubscriber stream = read(ByteStreams.publisher(new ByteArrayInputStream(content), range));
        assertInstanceOf(EOFException.class, stream.error);

        CollectingSubscriber skipped = read(ByteStreams.publisher(
                new ByteArrayInputStream(content), ReadOptions.range(150, 10).withExactRange()));
        assertInstanceOf(EOFException.class, skipped.error, "ended while skipping to the range");

        CollectingSubscriber full = read(ByteStreams.publisher(
                new ByteArrayInputStream(content), ReadOptions.range(10, 90).withExactRange()));
        assertNull(full.error);
        assertArrayEquals(Arrays.copyOfRange(content, 10, 100), full.bytes());
    }

    @Test
    void theOptionIsKeptByEveryOtherSetterAndShown() {
        ReadOptions exact = ReadOptions.range(0, 5)
                .withExactRange()
                .withChunkSize(1024)
                .withLentChunks()
                .withRange(1, 2)
                .withOwnedChunks();
        assertTrue(exact.exactRange());
        assertTrue(exact.toString().contains("exact"), exact.toString());
        assertEquals(false, ReadOptions.defaults().exactRange());
    }

    private static CollectingSubscriber read(Publisher<ByteBuffer> publisher) {
        CollectingSubscriber subscriber = CollectingSubscriber.all();
        publisher.subscribe(subscriber);
        return subscriber.await();
    }
}
