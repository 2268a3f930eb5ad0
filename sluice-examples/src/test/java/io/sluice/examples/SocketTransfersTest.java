package io.sluice.examples;

import io.sluice.ByteChannels;
import io.sluice.ReactiveFile;
import io.sluice.ReadOptions;
import io.sluice.WriteOptions;
import io.sluice.WriteSnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
    /** What the slow file receives: about a second at its pace, several times the bound on the sender's lead. */
    private static final int SLOW_FILE_BYTES = 4 * 1024 * 1024 + 13;

    private static final long MAX_QUEUED_BYTES = 256 * 1024;
    private static final int SOCKET_BUFFER_BYTES = 32 * 1024;
    /** The receiving socket's buffer: room for more than one read chunk (see the slow file test). */
    private static final int RECEIVE_BUFFER_BYTES = 128 * 1024;

    private static final int SLOW_READ_BYTES = 16 * 1024;
    /** The slow file takes at most this much per write call, then pauses: about 4 MiB/s. */
    private static final int SLOW_WRITE_BYTES = 32 * 1024;

    private static final long SLOW_WRITE_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(8);
    /** A send may fill its buffer by one more loopback segment than the buffer's size. */
    private static final long SEGMENT_BYTES = 64 * 1024;

    @TempDir
    Path dir;

    private ServerSocketChannel listener;
    private SocketChannel local;
    private SocketChannel peer;
    private final ExecutorService peerThread = Executors.newSingleThreadExecutor();

    @BeforeEach
    void connectOverLoopback() throws IOException {
        listener = ServerSocketChannel.open();
        listener.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER_BYTES); // inherited by accept()
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        local = SocketChannel.open();
        local.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER_BYTES);
        local.setOption(StandardSocketOptions.SO_RCVBUF, RECEIVE_BUFFER_BYTES); // before connect: sets the window
        local.connect(listener.getLocalAddress());
        peer = listener.accept();
        peer.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER_BYTES);
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

        long sent = SocketTransfers.sendFile(file, local, options)
                .toCompletableFuture()
                .get(60, TimeUnit.SECONDS);
        Received received = slowReader.get(60, TimeUnit.SECONDS);

        assertEquals(FILE_BYTES, sent);
        assertEquals(FILE_BYTES, received.bytes());
        assertArrayEquals(TestData.sha256(file), received.sha256());
        assertTrue(
                maxQueuedBytes.get() <= MAX_QUEUED_BYTES,
                "queued bytes peaked at " + maxQueuedBytes.get() + " > cap " + MAX_QUEUED_BYTES);
        assertFalse(local.isOpen(), "the library closes the socket after the last byte");
        System.out.printf(
                "file -> socket: %d bytes to a slow reader, queued bytes peaked at %d (cap %d)%n",
                sent, maxQueuedBytes.get(), MAX_QUEUED_BYTES);
    }

    @Test
    void receivesFromASocketIntoAFileUntilThePeerShutsDownItsOutput() throws Exception {
        byte[] payload = TestData.bytes(8, (int) FILE_BYTES);
        Path file = dir.resolve("received.bin");
        CompletableFuture<Void> sender = CompletableFuture.runAsync(() -> sendAll(peer, payload), peerThread);

        long saved = SocketTransfers.receiveToFile(local, file, WriteOptions.defaults())
                .toCompletableFuture()
                .get(60, TimeUnit.SECONDS);
        sender.get(60, TimeUnit.SECONDS);

        assertEquals(payload.length, saved);
        assertArrayEquals(payload, Files.readAllBytes(file));
        assertFalse(local.isOpen(), "the library closes the socket at end of stream");
    }

    /**
     * A fast sender pushes into the socket while the file side takes about 4 MiB/s. Asserted on
     * bounds, never on speeds: the writer never queues more than its cap, and the sender can never
     * be further ahead of the file than what the two socket buffers hold plus that cap, because TCP
     * stops it once the buffers are full and the library reads the socket only against demand.
     */
    @Test
    void receivesIntoASlowFileWhileTcpHoldsTheSenderBackByTheSocketBuffersPlusTheCap() throws Exception {
        byte[] payload = TestData.bytes(13, SLOW_FILE_BYTES);
        Path file = dir.resolve("slow.bin");
        Lead lead = new Lead();
        FastSender sender = new FastSender(peer, payload, lead);
        CompletableFuture<Void> sending = CompletableFuture.runAsync(sender, peerThread);
        long socketBuffersBytes = kernelBufferBytes(peer, StandardSocketOptions.SO_SNDBUF)
                + kernelBufferBytes(local, StandardSocketOptions.SO_RCVBUF)
                + SEGMENT_BYTES;

        // Nothing reads yet: TCP stops the sender once both buffers are full, whatever the speeds.
        assertTrue(sender.heldBack.await(30, TimeUnit.SECONDS), "TCP held the sender back");
        long sentBeforeReading = lead.sentBytes();
        assertTrue(
                sentBeforeReading <= socketBuffersBytes,
                "with nobody reading, " + sentBeforeReading + " bytes were sent, more than the socket buffers hold ("
                        + socketBuffersBytes + ")");
        // W4 bounds queued bytes by the cap for items no larger than those before them: let the first
        // read (the probe item) be a whole chunk, so that no later read is larger.
        awaitReadable(local, ReadOptions.DEFAULT_CHUNK_SIZE_BYTES);

        SlowChannel slowFile = new SlowChannel(
                FileChannel.open(
                        file,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.TRUNCATE_EXISTING,
                        StandardOpenOption.WRITE),
                lead);
        AtomicLong maxQueuedBytes = new AtomicLong();
        WriteOptions options = WriteOptions.defaults()
                .withMaxQueuedBytes(MAX_QUEUED_BYTES)
                .withListener((WriteSnapshot pass) -> maxQueuedBytes.accumulateAndGet(pass.queuedBytes(), Math::max));
        long saved = SocketTransfers.receiveToChannel(local, slowFile, options)
                .toCompletableFuture()
                .get(60, TimeUnit.SECONDS);
        sending.get(60, TimeUnit.SECONDS);

        assertEquals(payload.length, saved);
        assertArrayEquals(TestData.sha256(payload), TestData.sha256(file));
        assertTrue(
                maxQueuedBytes.get() <= MAX_QUEUED_BYTES,
                "queued bytes peaked at " + maxQueuedBytes.get() + " > cap " + MAX_QUEUED_BYTES);
        long leadBound = socketBuffersBytes + MAX_QUEUED_BYTES;
        assertTrue(
                lead.maxBytes() <= leadBound,
                "the sender was " + lead.maxBytes() + " bytes ahead of the file, more than socket buffers + cap = "
                        + leadBound);
        assertTrue(leadBound < payload.length, "the bound is tighter than the payload, so the test shows something");
        assertFalse(local.isOpen(), "the library closes the socket at end of stream");
        assertFalse(slowFile.isOpen(), "the library closes the target channel");
        System.out.printf(
                "socket -> slow file: %d bytes; sender held back %d times, at most %d bytes ahead of the"
                        + " file (bound %d); queued bytes peaked at %d (cap %d)%n",
                saved, sender.heldBackCount(), lead.maxBytes(), leadBound, maxQueuedBytes.get(), MAX_QUEUED_BYTES);
    }

    @Test
    void cancellingASendStalledByAPeerThatNeverReadsClosesTheSocketAndCancelsTheFileRead() throws Exception {
        Path file = TestData.file(dir.resolve("stalled.bin"), 12, FILE_BYTES);
        CountDownLatch firstChunk = new CountDownLatch(1);
        CountDownLatch fileReadCancelled = new CountDownLatch(1);
        // The writer's first pass may already hold more than the socket buffers take, so it can block
        // before any pass completes: the write has started once the writer has been given a chunk.
        Flux<ByteBuffer> chunks = Flux.from(ReactiveFile.of(file).read())
                .doOnNext(chunk -> firstChunk.countDown())
                .doOnCancel(fileReadCancelled::countDown);
        CompletableFuture<Long> send =
                ByteChannels.write(local, chunks, WriteOptions.defaults()).toCompletableFuture();
        assertTrue(firstChunk.await(10, TimeUnit.SECONDS), "the write started");

        assertTrue(send.cancel(true));

        assertFalse(local.isOpen(), "cancel closes the socket at once, unblocking a blocked write");
        assertTrue(fileReadCancelled.await(10, TimeUnit.SECONDS), "cancel reaches the file read");
        assertTrue(send.isCancelled());
    }

    record Received(long bytes, byte[] sha256) {}

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
            throw new UncheckedIOException(e);
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
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The most payload a socket buffer can hold. Linux keeps twice the size asked for (half of it
     * for bookkeeping) and Java reports the size asked for; twice the reported size bounds it on
     * every platform.
     */
    private static long kernelBufferBytes(SocketChannel socket, SocketOption<Integer> buffer) throws IOException {
        return 2L * socket.getOption(buffer);
    }

    /** Waits until {@code socket} has {@code bytes} to read, without reading them. */
    private static void awaitReadable(SocketChannel socket, int bytes) throws IOException {
        InputStream unread = socket.socket().getInputStream(); // only for available(): never read, never closed
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (unread.available() < bytes) {
            assertTrue(System.nanoTime() < deadline, "the socket never held " + bytes + " unread bytes");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /**
     * How far the sender is ahead of the file: bytes its {@code write} calls returned minus bytes the
     * file took. Samples read {@code sent} before {@code written}: both only grow, so a sample never
     * exceeds the true lead at the moment {@code written} is read.
     */
    static final class Lead {
        private final AtomicLong sent = new AtomicLong(); // sender -> any thread
        private final AtomicLong written = new AtomicLong(); // file writer -> any thread
        private final AtomicLong max = new AtomicLong();

        void sent(long bytes) {
            sent.addAndGet(bytes);
        }

        void written(long bytes) {
            written.addAndGet(bytes);
        }

        void sample() {
            long sentBytes = sent.get();
            max.accumulateAndGet(sentBytes - written.get(), Math::max);
        }

        long sentBytes() {
            return sent.get();
        }

        long maxBytes() {
            return max.get();
        }
    }

    /**
     * Sends as fast as the socket takes bytes, on a non-blocking socket so that TCP's refusal is
     * visible: each {@code write} that returns 0 counts as held back, samples the lead, and waits
     * for the socket to become writable (a selector, no spinning).
     */
    static final class FastSender implements Runnable {
        final CountDownLatch heldBack = new CountDownLatch(1);
        private final AtomicLong heldBackCount = new AtomicLong();
        private final SocketChannel socket;
        private final byte[] payload;
        private final Lead lead;

        FastSender(SocketChannel socket, byte[] payload, Lead lead) {
            this.socket = socket;
            this.payload = payload;
            this.lead = lead;
        }

        @Override
        public void run() {
            try (Selector selector = Selector.open()) {
                socket.configureBlocking(false);
                socket.register(selector, SelectionKey.OP_WRITE);
                ByteBuffer buffer = ByteBuffer.wrap(payload);
                while (buffer.hasRemaining()) {
                    int n = socket.write(buffer);
                    if (n > 0) {
                        lead.sent(n);
                        continue;
                    }
                    heldBackCount.incrementAndGet();
                    lead.sample();
                    heldBack.countDown();
                    selector.select(TimeUnit.SECONDS.toMillis(1));
                    selector.selectedKeys().clear();
                }
                socket.shutdownOutput();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        long heldBackCount() {
            return heldBackCount.get();
        }
    }

    /**
     * A slow file: each call writes at most {@code SLOW_WRITE_BYTES} to the file channel, then
     * pauses; a short write the library loops on. The pause paces the file, it synchronises nothing.
     */
    static final class SlowChannel implements WritableByteChannel {
        private final FileChannel file;
        private final Lead lead;

        SlowChannel(FileChannel file, Lead lead) {
            this.file = file;
            this.lead = lead;
        }

        @Override
        public int write(ByteBuffer source) throws IOException {
            lead.sample();
            ByteBuffer part = source.slice(source.position(), Math.min(source.remaining(), SLOW_WRITE_BYTES));
            int n = file.write(part);
            source.position(source.position() + n);
            lead.written(n);
            LockSupport.parkNanos(SLOW_WRITE_PAUSE_NANOS);
            return n;
        }

        @Override
        public boolean isOpen() {
            return file.isOpen();
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }
}
