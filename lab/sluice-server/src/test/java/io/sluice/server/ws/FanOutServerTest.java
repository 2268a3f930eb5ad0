package io.sluice.server.ws;

import org.eclipse.jetty.websocket.client.WebSocketClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fan-out server with a few in-process clients: order, slow clients, the control's growth, release. */
@Timeout(60)
class FanOutServerTest {

    /** A paced generator: enough to fill a stalled client's buffers in a second, little for a test JVM. */
    private static final double RATE = 20_000;

    private static final int SMALL_SEND_BUFFER = 16 * 1024;
    private static final long WAIT_MILLIS = 20_000;

    private WebSocketClient client;
    private FanOutServer server;

    @BeforeEach
    void startClient() throws Exception {
        client = new WebSocketClient();
        client.start();
    }

    @AfterEach
    void stop() throws Exception {
        client.stop();
        if (server != null) {
            server.close();
        }
    }

    private List<RecordingClient> connect(List<RecordingClient> clients) throws Exception {
        for (RecordingClient recording : clients) {
            client.connect(recording, server.uri()).get(10, TimeUnit.SECONDS);
        }
        return clients;
    }

    @ParameterizedTest
    @EnumSource(FanOutLane.class)
    void everyClientGetsEveryMessageInOrder(FanOutLane lane) throws Exception {
        server = FanOutServer.start(lane, "127.0.0.1", 0, RATE, 0);
        List<RecordingClient> clients =
                connect(List.of(RecordingClient.fast(), RecordingClient.fast(), RecordingClient.fast()));
        for (RecordingClient recording : clients) {
            assertTrue(recording.awaitReceived(2_000, WAIT_MILLIS), "received " + recording.received());
            assertEquals(0, recording.faults(), "gaps or duplicates");
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = FanOutLane.class,
            names = {"BOUNDED", "FIXED", "BOUNDED_BATCHED"})
    void aStalledClientDoesNotBlockFastOnesAndHoldsAtMostTheByteCap(FanOutLane lane) throws Exception {
        server = FanOutServer.start(lane, "127.0.0.1", 0, RATE, SMALL_SEND_BUFFER);
        RecordingClient stalled = new RecordingClient(1);
        List<RecordingClient> fast = connect(List.of(RecordingClient.fast(), RecordingClient.fast()));
        connect(List.of(stalled));
        assertTrue(stalled.awaitReceived(1, WAIT_MILLIS));
        for (RecordingClient recording : fast) {
            // at the generator's rate a stalled client's kernel buffers and ledger fill in well under this
            assertTrue(recording.awaitReceived(recording.received() + 10_000, WAIT_MILLIS), "fast client starved");
            assertEquals(0, recording.faults());
        }
        assertEquals(1, stalled.received(), "the stalled client reads nothing more");
        assertTrue(
                server.stats().queuedBytes() <= 3 * lane.maxQueuedBytes(),
                "queued " + server.stats().queuedBytes() + " bytes for 3 clients with a cap of "
                        + lane.maxQueuedBytes());
    }

    @Test
    void theUnboundedLanesQueueGrowsPastTheBoundedCapForAStalledClient() throws Exception {
        server = FanOutServer.start(FanOutLane.UNBOUNDED, "127.0.0.1", 0, RATE, SMALL_SEND_BUFFER);
        RecordingClient stalled = connect(List.of(new RecordingClient(1))).get(0);
        assertTrue(stalled.awaitReceived(1, WAIT_MILLIS));
        long bound = 4 * FanOutLane.BOUNDED_MAX_QUEUED_BYTES;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        while (server.stats().queuedBytes() <= bound && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20)); // no signal to await: the queue only grows
        }
        assertTrue(
                server.stats().queuedBytes() > bound, "queued " + server.stats().queuedBytes());
    }

    /** Polls until {@code count} subscribers have ended; whether they had within {@link #WAIT_MILLIS}. */
    private boolean awaitEnded(long count) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        while (server.stats().endedSubscribers() < count && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
        return server.stats().endedSubscribers() >= count;
    }

    @ParameterizedTest
    @EnumSource(FanOutLane.class)
    void closingAClientReleasesItsSubscriptionAndStoppingLeavesNoThread(FanOutLane lane) throws Exception {
        server = FanOutServer.start(lane, "127.0.0.1", 0, RATE, SMALL_SEND_BUFFER);
        List<RecordingClient> clients = connect(
                new ArrayList<>(List.of(new RecordingClient(1), RecordingClient.fast(), RecordingClient.fast())));
        for (RecordingClient recording : clients) {
            assertTrue(recording.awaitReceived(1, WAIT_MILLIS));
        }
        assertEquals(3, server.generator().activeStreams());

        assertTrue(clients.get(0).disconnectAndAwait(WAIT_MILLIS), "the stalled client disconnected");
        assertTrue(awaitEnded(1), "its subscriber ended");
        assertEquals(2, server.generator().activeStreams(), "its stream was cancelled");
        assertEquals(2, server.stats().liveSubscribers());
        assertTrue(clients.get(1).awaitReceived(clients.get(1).received() + 1_000, WAIT_MILLIS), "the others go on");

        for (RecordingClient recording : clients.subList(1, 3)) {
            assertTrue(recording.closeAndAwait(WAIT_MILLIS));
        }
        assertTrue(awaitEnded(3));
        assertEquals(0, server.generator().activeStreams());
        assertEquals(0, server.stats().queuedBytes());

        server.close();
        server = null;
        Set<String> left = Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .filter(name -> name.startsWith("ws-"))
                .collect(Collectors.toSet());
        assertTrue(left.isEmpty(), "server threads left: " + left);
        assertFalse(Thread.getAllStackTraces().keySet().stream()
                .anyMatch(thread -> thread.getName().equals("ws-generator")));
    }
}
