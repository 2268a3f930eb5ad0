package io.sluice.server.ws;

import io.sluice.server.JettyService;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The WebSocket fan-out server: one Jetty 12 server, one lane. {@code /ws} upgrades to a client
 * stream; {@code /stats} answers {@code name=value} lines (heap used, after a full collection
 * with {@code ?gc=true}; messages generated and sent; bytes queued; subscribers live and ended).
 * Stop it with {@link #close()}.
 */
public final class FanOutServer extends JettyService {

    /** Jetty's pool: nothing blocks, so a few threads are enough (as lane C's). */
    static final int THREADS = 16;
    /**
     * Jetty drops a connection with no progress for this long: longer than any run's budget, since a
     * slow client's sends stall for minutes and a dropped subscriber's backlog vanishes from every figure.
     */
    static final Duration IDLE_TIMEOUT = Duration.ofMinutes(30);

    private final MessageGenerator generator;
    private final FanOutStats stats = new FanOutStats();

    private FanOutServer(ThreadPool threads, String host, int port, int sendBufferBytes, MessageGenerator generator) {
        super(threads, host, port, sendBufferBytes);
        this.generator = generator;
    }

    /**
     * Starts a server on {@code port} (0: a free one); {@code messagesPerSecond} 0: unpaced;
     * {@code sendBufferBytes}: each connection's {@code SO_SNDBUF}, 0 for the system's default.
     */
    public static FanOutServer start(
            FanOutLane lane, String host, int port, double messagesPerSecond, int sendBufferBytes) throws Exception {
        QueuedThreadPool pool = new QueuedThreadPool(THREADS, 4);
        pool.setName("ws-" + lane.flag());
        FanOutServer fanOut = new FanOutServer(
                pool, host, port, sendBufferBytes, MessageGenerator.start(messagesPerSecond, "ws-generator"));
        WebSocketUpgradeHandler upgrades = WebSocketUpgradeHandler.from(fanOut.server(), container -> {
            container.setIdleTimeout(IDLE_TIMEOUT);
            container.addMapping(
                    "/ws",
                    (request, response, callback) ->
                            new FanOutEndpoint(fanOut.generator.publisher(), lane, fanOut.stats));
        });
        upgrades.setHandler(fanOut.new StatsHandler());
        fanOut.server().setHandler(upgrades);
        fanOut.start();
        return fanOut;
    }

    /** {@code ws://host:port/ws}. */
    public URI uri() {
        return URI.create("ws://" + host() + ":" + port() + "/ws");
    }

    /** The shared generator (tests watch its streams). */
    MessageGenerator generator() {
        return generator;
    }

    /** The clients' counts (tests watch them). */
    FanOutStats stats() {
        return stats;
    }

    @Override
    protected void release() {
        try {
            generator.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@code name=value} lines, one per figure; {@code ?gc=true} collects first. */
    String statsText(boolean collect) {
        if (collect) {
            System.gc();
        }
        long heapUsed = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        return "heapUsedBytes=" + heapUsed + "\n"
                + "generatedMessages=" + generator.generated() + "\n"
                + "sentMessages=" + stats.sentMessages() + "\n"
                + "queuedBytes=" + stats.queuedBytes() + "\n"
                + "liveSubscribers=" + stats.liveSubscribers() + "\n"
                + "endedSubscribers=" + stats.endedSubscribers() + "\n"
                + "activeStreams=" + generator.activeStreams() + "\n";
    }

    /** Answers {@code /stats}; 404 for anything else that is not a WebSocket upgrade. */
    private final class StatsHandler extends Handler.Abstract.NonBlocking {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            if (!"/stats".equals(Request.getPathInContext(request))) {
                return false;
            }
            String query = request.getHttpURI().getQuery();
            String body = statsText(query != null && query.contains("gc=true"));
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
            response.write(true, StandardCharsets.UTF_8.encode(body), callback);
            return true;
        }
    }
}
