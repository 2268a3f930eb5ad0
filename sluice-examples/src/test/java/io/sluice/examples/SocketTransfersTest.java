package io.sluice.examples;

import io.sluice.ByteChannels;
import io.sluice.ReactiveFile;
import io.sluice.WriteOptions;
import io.sluice.WriteSnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SocketTransfersTest {

    private static final long FILE_BYTES = 6L * 1024 * 1024 + 101;
    private static final long MAX_QUEUED_BYTES = 256 * 1024;
    private static final int SOCKET_BUFFER_BYTES = 32 * 1024;
    private static final int SLOW_READ_BYTES = 16 * 1024;

    @TempDir
    Path dir;

    private ServerSocketChannel listener;
    private SocketChannel local;
    private SocketChannel peer;
    private final ExecutorService peerThread = Executors.newSingleThreadExecutor();

    @BeforeEach
    void connectOverLoopback() throws IOException {
        listener = ServerSocketChannel.open();
        listener.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER_BYTES);   // inherited by accept()
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        local = SocketChannel.open();
        local.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER_BYTES);
        local.connect(listener.getLocalAddress());
        peer = listener.accept();
    }

    @AfterEach
    void closeEverything() throws Exception {
        peerThread.shutdownNow();
        assertTrue(peerThread.awaitTermination(10, TimeUnit.SECONDS), "the peer thread ended");
        local.close();
        peer.close();
        listener.close();
    }

    @Test
    void sendsAFileToASlowReaderHoldingAtMostMaxQueuedBytes() throws Exception {
        Path file = TestData.file(dir.resolve("send.bin"), 7, FILE_BYTES);
        CompletableFuture<Received> slowReader = CompletableFuture.supplyAsync(() -> readSlowly(peer), peerThread);
        AtomicLong maxQueuedBytes = new AtomicLong();
        WriteOptions options = WriteOptions.defaults()
                .withMaxQueuedBytes(MAX_QUEUED_BYTES)
                .withListener((WriteSnapshot pass) -> maxQueuedBytes.accumulateAndGet(pass.queuedBytes(), Math::max));

        long sent = SocketTransfers.sendFile(file, local, options).toCompletableFuture().get(60, TimeUnit.SECONDS);
        Received received = slowReader.get(60, TimeUnit.SECONDS);

        assertEquals(FILE_BYTES, sent);
        assertEquals(FILE_BYTES, received.bytes());
        assertArrayEquals(TestData.sha256(file), received.sha256());
        assertTrue(maxQueuedBytes.get() <= MAX_QUEUED_BYTES,
                "queued bytes peaked at " + maxQueuedBytes.get() + " > cap " + MAX_QUEUED_BYTES);
        assertFalse(local.isOpen(), "the library closes the socket after the last byte");
        System.out.printf("file -> socket: %d bytes to a slow reader, queued bytes peaked at %d (cap %d)%n",
                sent, maxQueuedBytes.get(), MAX_QUEUED_BYTES);
    }

    @Test
    void receivesFromASocketIntoAFileUntilThePeerShutsDownItsOutput() throws Exception {
        byte[] payload = TestData.bytes(8, (int) FILE_BYTES);
        Path file = dir.resolve("received.bin");
        CompletableFuture<Void> sender = CompletableFuture.runAsync(() -> sendAll(peer, payload), peerThread);

        long saved = SocketTransfers.receiveToFile(local, file, WriteOptions.defaults())
                .toCompletableFuture().get(60, TimeUnit.SECONDS);
        sender.get(60, TimeUnit.SECONDS);

        assertEquals(payload.length, saved);
        assertArrayEquals(payload, Files.readAllBytes(file));
        assertFalse(local.isOpen(), "the library closes the socket at end of stream");
    }

    @Test
    void cancellingASendStalledByAPeerThatNeverReadsClosesTheSocketAndCancelsTheFileRead() throws Exception {
        Path file = TestData.file(dir.resolve("stalled.bin"), 12, FILE_BYTES);
        CountDownLatch firstPass = new CountDownLatch(1);
        CountDownLatch fileReadCancelled = new CountDownLatch(1);
        Flux<ByteBuffer> chunks = Flux.from(ReactiveFile.of(file).read()).doOnCancel(fileReadCancelled::countDown);
        CompletableFuture<Long> send = ByteChannels.write(local, chunks,
                WriteOptions.defaults().withListener(pass -> firstPass.countDown())).toCompletableFuture();
        assertTrue(firstPass.await(10, TimeUnit.SECONDS), "the write started");

        assertTrue(send.cancel(true));

        assertFalse(local.isOpen(), "cancel closes the socket at once, unblocking a blocked write");
        assertTrue(fileReadCancelled.await(10, TimeUnit.SECONDS), "cancel reaches the file read");
        assertTrue(send.isCancelled());
    }

    record Received(long bytes, byte[] sha256) {
    }

    /**
     * Reads {@code SLOW_READ_BYTES} at a time with a short pause between reads, so the socket's
     * buffers stay full and the sender must wait: the pause paces the peer, it synchronises nothing.
     */
    private static Received readSlowly(SocketChannel socket) {
        MessageDigest digest = FileDigests.newSha256();
        ByteBuffer buffer = ByteBuffer.allocate(SLOW_READ_BYTES);
        long total = 0;
        try {
            for (int n = socket.read(buffer); n >= 0; n = socket.read(buffer)) {
                buffer.flip();
                total += buffer.remaining();
                digest.update(buffer);
                buffer.clear();
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return new Received(total, digest.digest());
    }

    private static void sendAll(SocketChannel socket, byte[] payload) {
        try {
            ByteBuffer buffer = ByteBuffer.wrap(payload);
            while (buffer.hasRemaining()) {
                socket.write(buffer);
            }
            socket.shutdownOutput();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
