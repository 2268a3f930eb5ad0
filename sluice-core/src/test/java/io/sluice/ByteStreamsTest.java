package io.sluice;

import io.sluice.testing.Bytes;
import io.sluice.testing.TestPublishers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ByteStreamsTest {

    @TempDir
    Path dir;

    @Test
    void aSingleUseStreamIsClosedWhenOnSubscribeThrows_2_13_R4() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        InputStream stream = new ByteArrayInputStream(new byte[10]) {
            @Override
            public void close() {
                closed.countDown();
            }
        };
        ByteStreams.publisher(stream).subscribe(new ThrowingOnSubscribe()); // §2.13: taken as a cancel
        assertTrue(closed.await(10, TimeUnit.SECONDS), "the library owns the stream and closes it");
    }

    @Test
    void aSingleUseStreamIsClosedWhenCancelledBeforeItsFirstRequest_R4() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        InputStream stream = new ByteArrayInputStream(new byte[10]) {
            @Override
            public void close() {
                closed.countDown();
            }
        };
        CollectingSubscriber subscriber = new CollectingSubscriber(0);
        ByteStreams.publisher(stream).subscribe(subscriber);
        subscriber.subscription.cancel();
        assertTrue(closed.await(10, TimeUnit.SECONDS), "the library owns the stream and closes it");
        assertEquals(1, subscriber.terminated.getCount(), "a cancelled read signals nothing");
    }

    @Test
    void cancellingAReadBlockedOnASilentSocketClosesItAndFreesItsThread_R9() throws Exception {
        ExecutorService reader = Executors.newSingleThreadExecutor();
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                Socket client = new Socket(server.getInetAddress(), server.getLocalPort());
                Socket silent = server.accept()) { // never writes: the client's read blocks
            CollectingSubscriber subscriber = new CollectingSubscriber(1);
            ByteStreams.publisher(
                            client.getInputStream(), ReadOptions.defaults().withExecutor(reader))
                    .subscribe(subscriber);
            Thread.sleep(100); // let the read block (the outcome is the same if not)
            subscriber.subscription.cancel();
            assertEquals(
                    "free", reader.submit(() -> "free").get(10, TimeUnit.SECONDS), "the reading thread is released");
            assertTrue(client.isClosed(), "closing its stream closes the socket");
            assertEquals(
                    1, subscriber.terminated.getCount(), "the aborted read's SocketException is not signalled (§1.8)");
            assertFalse(silent.isClosed());
        } finally {
            reader.shutdownNow();
        }
    }

    @Test
    void neverCallsAStreamsToStringWhichMayBeItsContent() throws Exception {
        byte[] content = Bytes.random(70_000, 8);
        ByteArrayOutputStream out = new ByteArrayOutputStream() {
            @Override
            public synchronized String toString() {
                throw new AssertionError("toString() of a ByteArrayOutputStream is its content: never call it");
            }
        };
        InputStream in = new ByteArrayInputStream(content) {
            @Override
            public String toString() {
                throw new AssertionError("toString() called");
            }
        };
        long written = ByteStreams.write(out, ByteStreams.publisher(in), WriteOptions.defaults())
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        assertEquals(content.length, written);
        assertArrayEquals(content, out.toByteArray());
    }

    @Test
    void pipesAnInputStreamIntoAFile() throws Exception {
        byte[] content = Bytes.random(1_000_003, 1);
        Path target = dir.resolve("out");
        long written = ReactiveFile.of(target)
                .write(ByteStreams.publisher(new ByteArrayInputStream(content)))
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        assertEquals(content.length, written);
        assertArrayEquals(content, Files.readAllBytes(target));
    }

    @Test
    void pipesAFileIntoAnOutputStreamAndFlushesAndClosesIt() throws Exception {
        byte[] content = Bytes.random(777_777, 2);
        Path source = Bytes.file(dir, "in", content);
        AtomicBoolean closed = new AtomicBoolean();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream() {
            @Override
            public void close() {
                closed.set(true);
            }
        };
        ByteStreams.write(bytes, ReactiveFile.of(source).read(), WriteOptions.defaults())
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        assertArrayEquals(content, bytes.toByteArray());
        assertTrue(closed.get());
    }

    @Test
    void streamWorkRunsOnTheBlockingPoolNeverOnTheFilePool() throws Exception {
        AtomicReference<String> readThread = new AtomicReference<>();
        InputStream stream = new ByteArrayInputStream(new byte[100]) {
            @Override
            public synchronized int read(byte[] buffer, int off, int len) {
                readThread.set(Thread.currentThread().getName());
                return super.read(buffer, off, len);
            }
        };
        CollectingSubscriber subscriber = CollectingSubscriber.all();
        ByteStreams.publisher(stream).subscribe(subscriber);
        subscriber.await();
        assertTrue(readThread.get().startsWith("sluice-blocking-"), readThread.get());

        AtomicReference<String> writeThread = new AtomicReference<>();
        OutputStream out = new OutputStream() {
            @Override
            public void write(int oneByte) {
                writeThread.set(Thread.currentThread().getName());
            }

            @Override
            public void write(byte[] bytes, int off, int len) {
                writeThread.set(Thread.currentThread().getName());
            }
        };
        ByteStreams.write(out, TestPublishers.chunks(new byte[10], 5), WriteOptions.defaults())
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        assertTrue(writeThread.get().startsWith("sluice-blocking-"), writeThread.get());
    }

    @Test
    void aFailingStreamFailsTheWriteWithItsException() {
        IOException broken = new IOException("broken pipe");
        OutputStream out = new OutputStream() {
            @Override
            public void write(int oneByte) throws IOException {
                throw broken;
            }

            @Override
            public void write(byte[] bytes, int off, int len) throws IOException {
                throw broken;
            }
        };
        CompletionException exception = assertThrows(
                CompletionException.class,
                () -> ByteStreams.write(out, TestPublishers.chunks(new byte[10], 5), WriteOptions.defaults())
                        .toCompletableFuture()
                        .join());
        assertSame(broken, exception.getCause());
    }

    @Test
    void readsARangeOfAStream() {
        byte[] content = Bytes.random(50_000, 3);
        CollectingSubscriber subscriber = CollectingSubscriber.all();
        ByteStreams.publisher(
                        new ByteArrayInputStream(content),
                        ReadOptions.range(20_000, 100).withChunkSize(30))
                .subscribe(subscriber);
        assertArrayEquals(
                java.util.Arrays.copyOfRange(content, 20_000, 20_100),
                subscriber.await().bytes());
        assertEquals(4, subscriber.chunks.size());
    }
}
