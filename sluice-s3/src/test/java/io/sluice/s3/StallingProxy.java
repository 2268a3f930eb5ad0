package io.sluice.s3;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on loopback in front of a server that forwards requests whole and responses until a
 * byte budget is spent, then stops sending without closing anything: a server that dies mid-body
 * while the connection stays up, or ({@link #holdAnswers()}, set as a request starts) a server that
 * takes a request's whole body and never answers. Counts the connections the client closed. Its
 * threads are the test's own (daemons), ended by {@link #close()}.
 */
final class StallingProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final int targetPort;
    private final AtomicLong responseBudget = new AtomicLong(Long.MAX_VALUE); // bytes still forwarded to clients
    private volatile boolean interimPasses; // while holding answers: a 1xx response is forwarded outside the budget
    private final AtomicInteger closedByClient = new AtomicInteger(); // connections the client ended
    private final AtomicLong requestBytesBeforeFlip = new AtomicLong(Long.MAX_VALUE); // over all connections
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    StallingProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        start("stalling-proxy-accept", this::accept);
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + listener.getLocalPort());
    }

    /** From now on, forwards {@code bytes} more response bytes (over all connections), then nothing. */
    void stallAfter(long bytes) {
        interimPasses = false;
        responseBudget.set(bytes);
    }

    /**
     * From now on, forwards no final answer: requests, bodies included, still reach the server, which
     * answers, but no answer reaches the client until {@link #stallAfter} gives a budget again. An
     * interim {@code 1xx} response still passes: a request sent with {@code Expect: 100-continue} (the
     * SDK's {@code UploadPart}) sends its body only after the server's {@code 100 Continue}.
     */
    void holdAnswers() {
        interimPasses = true;
        responseBudget.set(0);
    }

    /**
     * From now on, forwards {@code bytes} more request bytes (over all connections) as they are, then
     * changes the next one (flips a bit), once: a byte damaged on its way to the server.
     */
    void flipRequestByteAfter(long bytes) {
        requestBytesBeforeFlip.set(bytes);
    }

    int closedByClient() {
        return closedByClient.get();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket();
                server.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort));
                sockets.add(client);
                sockets.add(server);
                start("stalling-proxy-up", () -> forwardRequests(client, server));
                start("stalling-proxy-down", () -> forwardResponses(server, client));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void forwardRequests(Socket client, Socket server) {
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = client.getInputStream();
                OutputStream out = server.getOutputStream()) {
            for (int count = in.read(buffer); count >= 0; count = in.read(buffer)) {
                long before = requestBytesBeforeFlip.getAndAdd(-count);
                if (before >= 0 && before < count) {
                    buffer[(int) before] ^= 0x40; // once: the counter is below 0 after
                }
                out.write(buffer, 0, count);
            }
            closedByClient.incrementAndGet(); // EOF from the client: it closed the connection
        } catch (IOException e) {
            if (!listener.isClosed()) {
                closedByClient.incrementAndGet(); // reset by the client
            }
        }
    }

    /**
     * Reads the server's bytes as they come and forwards each once the budget allows it. The budget is
     * asked after the read, not before: this thread waits in {@code read} while the connection is idle,
     * so a budget read before it would let through the first answer after a {@link #holdAnswers} on a
     * connection the client kept alive and reused. The server's end of the stream is held the same way:
     * a stalled server closes nothing.
     */
    private void forwardResponses(Socket server, Socket client) {
        byte[] buffer = new byte[8 * 1024];
        try {
            InputStream in = server.getInputStream();
            OutputStream out = client.getOutputStream();
            for (int count = in.read(buffer); count >= 0; count = in.read(buffer)) {
                int sent = interimPasses ? interimLength(buffer, count) : 0;
                out.write(buffer, 0, sent);
                while (sent < count) {
                    int allowed = take(count - sent);
                    if (allowed == 0 && !pause(client)) {
                        return;
                    }
                    out.write(buffer, sent, allowed);
                    sent += allowed;
                }
            }
            while (responseBudget.get() <= 0) {
                if (!pause(client)) {
                    return;
                }
            }
            client.shutdownOutput();
        } catch (IOException | InterruptedException e) {
            // a side closed: this direction ends
        }
    }

    /** The length of the interim ({@code 1xx}) response {@code buffer} starts with, whole; 0 if it starts with none. */
    static int interimLength(byte[] buffer, int count) {
        String text = new String(buffer, 0, count, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        return text.startsWith("HTTP/1.1 1") && end >= 0 ? end + 4 : 0;
    }

    /** Waits while stalled, sending nothing and closing nothing; false once either side is closed here. */
    private boolean pause(Socket client) throws InterruptedException {
        Thread.sleep(10);
        return !client.isClosed() && !listener.isClosed();
    }

    /** Takes up to {@code wanted} bytes of the budget; 0 while it is spent. */
    private int take(int wanted) {
        while (true) {
            long budget = responseBudget.get();
            if (budget <= 0) {
                return 0;
            }
            int taken = (int) Math.min(wanted, budget);
            if (responseBudget.compareAndSet(budget, budget - taken)) {
                return taken;
            }
        }
    }

    private static void start(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket socket : sockets) {
            socket.close();
        }
    }
}
