package io.sluice;

import io.sluice.testing.Bytes;
import io.sluice.testkit.OpenFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReactiveFileReadTest {

    @TempDir
    Path dir;

    @Test
    void readsTheWholeFileInFullChunksButTheLast() {
        byte[] content = Bytes.random(10 * 1000 + 7, 1);
        Path file = Bytes.file(dir, "f", content);
        CollectingSubscriber subscriber = CollectingSubscriber.all();
        ReactiveFile.of(file).read(ReadOptions.defaults().withChunkSize(1000)).subscribe(subscriber);
        subscriber.await();
        assertNull(subscriber.error);
        assertEquals(11, subscriber.chunks.size());
        for (int i = 0; i < 10; i++) {
            assertEquals(1000, subscriber.chunks.get(i).remaining(), "chunk " + i);
        }
        assertEquals(7, subscriber.chunks.get(10).remaining());
        assertArrayEquals(content, subscriber.bytes());
    }

    @Test
    void theDefaultChunkIs64KiB() {
        byte[] content = Bytes.random(3 * 64 * 1024 + 5, 9);
        CollectingSubscriber subscriber = CollectingSubscriber.all();
        ReactiveFile.of(Bytes.file(dir, "d", content)).read().subscribe(subscriber);
        subscriber.await();
        assertEquals(
                java.util.List.of(65536, 65536, 65536, 5),
                subscriber.chunks.stream().map(ByteBuffer::remaining).collect(java.util.stream.Collectors.toList()));
        assertArrayEquals(content, subscriber.bytes());
    }

    @Test
    void aFileOfExactlyNChunksYieldsNChunksThenCompletes() {
        byte[] content = Bytes.random(4 * 512, 2);
        Path file = Bytes.file(dir, "f", content);
        CollectingSubscriber subscriber = CollectingSubscriber.all();
        ReactiveFile.of(file).read(ReadOptions.defaults().withChunkSize(512)).subscribe(subscriber);
        subscriber.await();
        assertTrue(subscriber.completed);
        assertEquals(4, subscriber.chunks.size());
    }

    @Test
    void anEmptyFileCompletesWithoutItems() {
        Path file = Bytes.file(dir, "empty", new byte[0]);
        CollectingSubscriber subscriber = CollectingSubscriber.all();
        ReactiveFile.of(file).read().subscribe(subscriber);
        subscriber.await();
        assertTrue(subscriber.completed);
        assertEquals(0, subscriber.chunks.size());
    }

    @Test
    void readsARange() {
        byte[] content = Bytes.random(100_000, 3);
        Path file = Bytes.file(dir, "f", content);
        CollectingSubscriber subscriber = CollectingSubscriber.all();
        ReactiveFile.of(file)
                .read(ReadOptions.range(12_345, 50_000).withChunkSize(4096))
                .subscribe(subscriber);
        subscriber.await();
        assertArrayEquals(Arrays.copyOfRange(content, 12_345, 62_345), subscriber.bytes());
        assertEquals(13, subscriber.chunks.size()); // 12 full chunks of 4096 + 848
    }

    @Test
    void aRangePastTheEndIsCutAtTheEnd() {
        byte[] content = Bytes.random(1000, 4);
        Path file = Bytes.file(dir, "f", content);
        CollectingSubscriber tail = CollectingSubscriber.all();
        ReactiveFile.of(file).read(ReadOptions.range(900, 1_000_000)).subscribe(tail);
        assertArrayEquals(Arrays.copyOfRange(content, 900, 1000), tail.await().bytes());
        CollectingSubscriber beyond = CollectingSubscriber.all();
        ReactiveFile.of(file).read(ReadOptions.range(5000, 10)).subscribe(beyond);
        assertTrue(beyond.await().completed);
        assertEquals(0, beyond.chunks.size());
    }

    @Test
    void readsOnlyAgainstDemand() throws Exception {
        Path file = Bytes.file(dir, "f", Bytes.random(10 * 100, 5));
        CollectingSubscriber subscriber = new CollectingSubscriber(0);
        ReactiveFile.of(file).read(ReadOptions.defaults().withChunkSize(100)).subscribe(subscriber);
        subscriber.subscription.request(3);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (subscriber.chunks.size() < 3 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        Thread.sleep(50); // a publisher that ignores demand would send more by now
        assertEquals(3, subscriber.chunks.size());
        subscriber.subscription.request(Long.MAX_VALUE);
        subscriber.await();
        assertEquals(10, subscriber.chunks.size());
    }

    @Test
    void opensNothingBeforeTheFirstRequest() throws Exception {
        Path file = dir.resolve("later");
        BytePublisher publisher = ReactiveFile.of(file).read(); // the file does not exist yet
        Files.write(file, new byte[] {1, 2, 3});
        CollectingSubscriber subscriber = new CollectingSubscriber(0);
        publisher.subscribe(subscriber);
        Thread.sleep(50); // time to open, if it wrongly did
        assertEquals(0, OpenFiles.under(dir).size(), "R3: nothing open before request(n)");
        subscriber.subscription.request(1);
        subscriber.await();
        assertArrayEquals(new byte[] {1, 2, 3}, subscriber.bytes());
    }

    @Test
    void aMissingFileFailsRightAfterOnSubscribeWithoutARequest_1_9() {
        CollectingSubscriber subscriber = new CollectingSubscriber(0);
        ReactiveFile.of(dir.resolve("missing")).read().subscribe(subscriber);
        subscriber.await();
        assertInstanceOf(NoSuchFileException.class, subscriber.error);
    }

    @Test
    void isColdEachSubscriberReadsIndependently() {
        byte[] content = Bytes.random(300_000, 6);
        Path file = Bytes.file(dir, "f", content);
        BytePublisher publisher = ReactiveFile.of(file).read();
        CollectingSubscriber first = CollectingSubscriber.all();
        CollectingSubscriber second = CollectingSubscriber.all();
        publisher.subscribe(first);
        publisher.subscribe(second);
        assertArrayEquals(content, first.await().bytes());
        assertArrayEquals(content, second.await().bytes());
    }

    @Test
    void aMissingFileSignalsOnSubscribeThenOnErrorWithNoSuchFileException() {
        CollectingSubscriber subscriber = CollectingSubscriber.all();
        ReactiveFile.of(dir.resolve("missing")).read().subscribe(subscriber);
        subscriber.await();
        assertEquals(0, subscriber.subscribed.getCount(), "§1.9: onSubscribe first");
        assertInstanceOf(NoSuchFileException.class, subscriber.error);
    }

    @Test
    void aDirectorySignalsAnIOExceptionNamingIt() {
        CollectingSubscriber subscriber = CollectingSubscriber.all();
        ReactiveFile.of(dir).read().subscribe(subscriber);
        subscriber.await();
        assertInstanceOf(IOException.class, subscriber.error);
        assertTrue(subscriber.error.getMessage().contains("Is a directory"), subscriber.error.getMessage());
    }

    @Test
    void requestOfZeroSignalsIllegalArgumentCitingRule_3_9() {
        Path file = Bytes.file(dir, "f", Bytes.random(1000, 7));
        CollectingSubscriber subscriber = new CollectingSubscriber(0);
        ReactiveFile.of(file).read().subscribe(subscriber);
        subscriber.subscription.request(0);
        subscriber.await();
        assertInstanceOf(IllegalArgumentException.class, subscriber.error);
        assertEquals("§3.9: request(n) must be positive, was 0", subscriber.error.getMessage());
    }

    @Test
    void cancelClosesTheFileEvenWhileIdle() throws Exception {
        Path file = Bytes.file(dir, "f", Bytes.random(100_000, 8));
        CollectingSubscriber subscriber = new CollectingSubscriber(0);
        ReactiveFile.of(file).read(ReadOptions.defaults().withChunkSize(1000)).subscribe(subscriber);
        subscriber.subscription.request(1); // opens the file
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (subscriber.chunks.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertEquals(1, OpenFiles.under(dir).size(), "the file is open while the read is idle");
        subscriber.subscription.cancel();
        OpenFiles.awaitNoneUnder(dir);
        assertFalse(subscriber.completed);
        assertNull(subscriber.error);
    }

    @Test
    void signalsOnTheIoPoolAndChunksAreTheSubscribers() {
        Path file = Bytes.file(dir, "f", Bytes.random(200_000, 9));
        CollectingSubscriber subscriber = CollectingSubscriber.all();
        ReactiveFile.of(file).read().subscribe(subscriber);
        subscriber.await();
        assertTrue(
                subscriber.threads.stream().allMatch(name -> name.startsWith("sluice-io-")),
                subscriber.threads.toString());
        ByteBuffer first = subscriber.chunks.get(0);
        assertFalse(first.isReadOnly());
        assertTrue(first != subscriber.chunks.get(1));
    }

    @Test
    void badArgumentsThrowAtTheCall() {
        assertEquals(
                "chunkSize must be positive, was 0",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> ReadOptions.defaults().withChunkSize(0))
                        .getMessage());
        assertEquals(
                "offset must not be negative, was -1",
                assertThrows(IllegalArgumentException.class, () -> ReadOptions.range(-1, 10))
                        .getMessage());
        assertEquals(
                "length must not be negative, was -5",
                assertThrows(IllegalArgumentException.class, () -> ReadOptions.range(0, -5))
                        .getMessage());
        assertThrows(NullPointerException.class, () -> ReactiveFile.of(null));
        assertThrows(NullPointerException.class, () -> ReactiveFile.of(dir).read(null));
        assertThrows(
                NullPointerException.class,
                () -> ReactiveFile.of(dir).read().subscribe((org.reactivestreams.Subscriber<ByteBuffer>) null));
    }
}
