package io.sluice.server;

import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.ThreadPool;

import java.io.IOException;

/**
 * One Jetty 12 server with one connector, as {@link FileServer} and {@code ws.FanOutServer} run
 * it: a subclass sets the handler on {@link #server()} and calls {@link #start()}; {@link #close()}
 * stops Jetty, then {@linkplain #release() releases} what the subclass holds.
 */
public abstract class JettyService implements AutoCloseable {

    /** The listen backlog of every server (capped at {@code net.core.somaxconn}; lab/docs/SERVER.md says why). */
    static final int ACCEPT_QUEUE_SIZE = 2048;

    private final Server server;
    private final ServerConnector connector;

    /**
     * @param threads Jetty's pool
     * @param host the address to bind
     * @param port the port, 0 for a free one
     * @param sendBufferBytes each accepted connection's {@code SO_SNDBUF}, 0 for the system's default
     */
    protected JettyService(ThreadPool threads, String host, int port, int sendBufferBytes) {
        server = new Server(threads);
        connector = new ServerConnector(server);
        connector.setHost(host);
        connector.setPort(port);
        connector.setAcceptQueueSize(ACCEPT_QUEUE_SIZE);
        if (sendBufferBytes > 0) {
            connector.setAcceptedSendBufferSize(sendBufferBytes);
        }
        server.addConnector(connector);
    }

    protected final Server server() {
        return server;
    }

    /** Starts Jetty; when it cannot start (port in use, ...), closes this and rethrows. */
    protected final void start() throws Exception {
        try {
            server.start();
        } catch (Exception e) {
            close();
            throw e;
        }
    }

    /** The address bound. */
    protected final String host() {
        return connector.getHost();
    }

    /** The port actually bound (useful with port 0). */
    public final int port() {
        return connector.getLocalPort();
    }

    /** Blocks until the server stops. */
    public final void join() throws InterruptedException {
        server.join();
    }

    /**
     * For a {@code main}: closes this from a shutdown hook (named {@code name + "-shutdown"}, its
     * failure printed after {@code name}), prints {@code ready} on stdout, the line a harness waits
     * for, and blocks until the server stops.
     */
    public final void serveUntilStopped(String name, String ready) throws InterruptedException {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                close();
                            } catch (IOException e) {
                                System.err.println(name + ": " + e.getMessage());
                            }
                        },
                        name + "-shutdown"));
        System.out.println(ready);
        System.out.flush();
        join();
    }

    /** What the subclass holds besides Jetty; runs once Jetty has stopped, or failed to. */
    protected abstract void release();

    @Override
    public final void close() throws IOException {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IOException("stopping the server failed", e);
        } finally {
            release();
        }
    }
}
