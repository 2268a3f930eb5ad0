package io.sluice.server.load;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Slow readers (small receive buffer, 8 KiB every 200 ms) and slow writers (4 KiB every 100 ms) on raw
 * non-blocking sockets, all driven by one timer thread, so the load side cannot be the bottleneck.
 */
final class SlowClients implements AutoCloseable {

    static final int READ_BYTES = 8 * 1024;
    static final long READ_PERIOD_MILLIS = 200;
    static final int WRITE_BYTES = 4 * 1024;
    static final long WRITE_PERIOD_MILLIS = 100;

    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(LoadMain.daemon("load-slow-clients"));
    private final List<SocketChannel> channels = new ArrayList<>();
    final AtomicLong bytesRead = new AtomicLong();
    final AtomicLong bytesWritten = new AtomicLong();
    final AtomicLong uploadsVerified = new AtomicLong();
    final AtomicLong clientErrors = new AtomicLong();

    /**
     * Connects, sends {@code head} and leaves the channel non-blocking; null when the server refuses (one that
     * died while the clients connected): those count as client errors, which the scenario reports.
     */
    private SocketChannel connect(int port, String head, boolean reader) {
        try {
            SocketChannel channel = SocketChannel.open();
            channels.add(channel);
            if (reader) {
                channel.setOption(StandardSocketOptions.SO_RCVBUF, READ_BYTES);
            }
            channel.connect(new InetSocketAddress("127.0.0.1", port));
            channel.write(ByteBuffer.wrap(head.getBytes(StandardCharsets.ISO_8859_1)));
            channel.configureBlocking(false);
            return channel;
        } catch (IOException e) {
            clientErrors.incrementAndGet();
            return null;
        }
    }

    void startReader(int port, String target) {
        SocketChannel channel = connect(port, "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", true);
        if (channel == null) {
            return;
        }
        ByteBuffer buffer = ByteBuffer.allocate(READ_BYTES);
        timer.scheduleAtFixedRate(
                () -> {
                    try {
                        buffer.clear();
                        int read = channel.read(buffer);
                        if (read > 0) {
                            bytesRead.addAndGet(read);
                        }
                    } catch (IOException e) {
                        clientErrors.incrementAndGet();
                        throw new IllegalStateException(e); // stops this reader's schedule
                    }
                },
                READ_PERIOD_MILLIS,
                READ_PERIOD_MILLIS,
                TimeUnit.MILLISECONDS);
    }

    /** Uploads {@code size} random bytes slowly and checks the 201 answer carries their SHA-256. */
    void startWriter(int port, String target, int size, long seed) {
        byte[] body = new byte[size];
        new Random(seed).nextBytes(body);
        String expectedSha = sha256(body);
        SocketChannel channel = connect(
                port,
                "PUT " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: " + size
                        + "\r\nConnection: close\r\n\r\n",
                false);
        if (channel == null) {
            return;
        }
        ByteBuffer toSend = ByteBuffer.wrap(body);
        ByteBuffer answer = ByteBuffer.allocate(64 * 1024);
        Runnable[] self = new Runnable[1];
        self[0] = () -> {
            try {
                if (toSend.hasRemaining()) {
                    int written = channel.write(toSend.slice().limit(Math.min(WRITE_BYTES, toSend.remaining())));
                    bytesWritten.addAndGet(written);
                    toSend.position(toSend.position() + written);
                    timer.schedule(self[0], WRITE_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
                    return;
                }
                int read = channel.read(answer);
                String text = new String(answer.array(), 0, answer.position(), StandardCharsets.ISO_8859_1);
                if (text.contains(expectedSha)) {
                    uploadsVerified.incrementAndGet();
                    channel.close();
                } else if (read < 0 || (text.startsWith("HTTP/1.1 ") && !text.startsWith("HTTP/1.1 201"))) {
                    channel.close(); // not verified: the note counts verified uploads only
                } else {
                    timer.schedule(self[0], WRITE_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
                }
            } catch (IOException e) {
                clientErrors.incrementAndGet();
            }
        };
        timer.schedule(self[0], WRITE_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        for (SocketChannel channel : channels) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
