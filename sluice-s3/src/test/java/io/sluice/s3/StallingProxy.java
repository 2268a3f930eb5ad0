package io.sluice.s3;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
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
    private final AtomicInteger closedByClient = new AtomicInteger(); // connections the client ended
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
        responseBudget.set(bytes);
    }

    /**
     * From now on, forwards no response byte: requests, bodies included, still reach the server, which
     * answers, but no answer reaches the client until {@link #stallAfter} gives a budget again.
     */
    void holdAnswers() {
        responseBudget.set(0);
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
                out.write(buffer, 0, count);
            }
            closedByClient.incrementAndGet(); // EOF from the client: it closed the connection
        } catch (IOException e) {
            if (!listener.isClosed()) {
                closedByClient.incrementAndGet(); // reset by the client
            }
        }
    }

    private void forwardResponses(Socket server, Socket client) {
        byte[] buffer = new byte[8 * 1024];
        try {
            InputStream in = server.getInputStream();
            OutputStream out = client.getOutputStream();
            while (true) {
                long budget = responseBudget.get();
                if (budget <= 0) {
                    Thread.sleep(10); // stalled: send nothing, close nothing
                    if (client.isClosed() || listener.isClosed()) {
                        return;
                    }
                    continue;
                }
                int count = in.read(buffer, 0, (int) Math.min(buffer.length, budget));
                if (count < 0) {
                    client.shutdownOutput();
                    return;
                }
                responseBudget.addAndGet(-count);
                out.write(buffer, 0, count);
            }
        } catch (IOException | InterruptedException e) {
            // a side closed: this direction ends
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
