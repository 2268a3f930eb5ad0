package io.sluice.server.ws.load;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.websocket.client.WebSocketClient;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * One lane's clients: {@code clients} WebSocket connections from Jetty's client, the first
 * {@code round(clients * slowShare)} of them slow. Every client checks its order
 * ({@link ClientEndpoint}); fast clients' latencies go into one histogram.
 * {@link #close()} closes every connection and stops the client and its timer; a second call does nothing.
 * The totals are thread-safe.
 *
 * @param timer the slow clients' delayed demands; shut down once closed
 * @param gaps sequence numbers skipped ahead, over all clients
 * @param duplicates sequence numbers seen again or gone back, over all clients
 * @param firstError the first client error, or null
 */
record FanOutLoad(
        WebSocketClient client,
        ScheduledExecutorService timer,
        List<ClientEndpoint> endpoints,
        Recorder latencyMicros,
        LongAdder fastMessages,
        LongAdder slowMessages,
        LongAdder gaps,
        LongAdder duplicates,
        AtomicReference<Throwable> firstError)
        implements AutoCloseable {

    /** The most a connection may take to open. */
    static final long CONNECT_TIMEOUT_SECONDS = 60;

    /** The number of slow clients among {@code clients}. */
    static int slowClients(int clients, double slowShare) {
        return (int) Math.round(clients * slowShare);
    }

    /** Opens every connection; returns once all are open. */
    static FanOutLoad connect(URI uri, int clients, double slowShare, long slowDelayMillis) throws Exception {
        QueuedThreadPool pool = new QueuedThreadPool(64, 4);
        pool.setName("ws-load");
        HttpClient http = new HttpClient();
        http.setExecutor(pool);
        http.setMaxConnectionsPerDestination(clients + 16);
        http.setMaxRequestsQueuedPerDestination(clients + 16);
        WebSocketClient client = new WebSocketClient(http);
        client.setIdleTimeout(Duration.ofSeconds(120));
        client.start();
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "ws-load-slow-timer");
            thread.setDaemon(true);
            return thread;
        });
        FanOutLoad load = new FanOutLoad(
                client,
                timer,
                new ArrayList<>(clients),
                new Recorder(3),
                new LongAdder(),
                new LongAdder(),
                new LongAdder(),
                new LongAdder(),
                new AtomicReference<>());
        try {
            int slow = slowClients(clients, slowShare);
            List<CompletableFuture<?>> opened = new ArrayList<>(clients);
            for (int i = 0; i < clients; i++) {
                ClientEndpoint endpoint = new ClientEndpoint(i < slow, slowDelayMillis, load);
                load.endpoints.add(endpoint);
                opened.add(client.connect(endpoint, uri));
            }
            CompletableFuture.allOf(opened.toArray(CompletableFuture[]::new))
                    .get(CONNECT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            load.close();
            throw e;
        }
        return load;
    }

    /** The fast clients' latencies since the last call (the first call: since connect). */
    Histogram latencySinceLastCall() {
        return latencyMicros.getIntervalHistogram();
    }

    @Override
    public synchronized void close() throws Exception {
        if (timer.isShutdown()) {
            return;
        }
        try {
            endpoints.forEach(ClientEndpoint::close);
        } finally {
            timer.shutdownNow(); // marks it closed: a second call does nothing
        }
        client.stop();
        client.getHttpClient().stop();
    }
}
