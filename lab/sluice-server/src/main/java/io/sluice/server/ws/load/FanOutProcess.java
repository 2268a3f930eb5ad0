package io.sluice.server.ws.load;

import io.sluice.server.load.ProcessReadings;
import io.sluice.server.load.SendQueueProbe;
import io.sluice.server.ws.FanOutLane;
import io.sluice.server.ws.FanOutMain;
import io.sluice.lab.ChildJvm;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The fan-out server in a JVM of its own ({@link FanOutMain}, started by {@link ChildJvm}), with
 * what the harness reads from outside: RSS, CPU seconds and kernel send-queue bytes from
 * {@code /proc}, and the server's {@code /stats}.
 */
record FanOutProcess(ChildJvm jvm) implements AutoCloseable {

    private static final HttpClient STATS_CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    static FanOutProcess start(FanOutLane lane, String maxHeap, double messagesPerSecond, int sendBufferBytes)
            throws IOException {
        ChildJvm jvm = ChildJvm.main("ws server for lane " + lane.flag(), FanOutMain.class.getName())
                .maxHeap(maxHeap).exitOnOutOfMemory()
                .args(List.of("--lane", lane.flag(), "--port", "0",
                        "--rate", Double.toString(messagesPerSecond), "--send-buffer", Integer.toString(sendBufferBytes)))
                .start();
        jvm.awaitReady();
        return new FanOutProcess(jvm);
    }

    URI uri() {
        return URI.create("ws://127.0.0.1:" + jvm.port() + "/ws");
    }

    long pid() {
        return jvm.pid();
    }

    /** {@code VmRSS} of the server in bytes, -1 when it is gone. */
    long rssBytes() {
        return ProcessReadings.rssBytes(pid());
    }

    /** User + system CPU seconds of the server so far. */
    double cpuSeconds() {
        return ProcessReadings.cpuSeconds(pid());
    }

    /** Bytes the kernel holds in the send queues of the server's connections, -1 where /proc/net/tcp is absent. */
    long sendQueueBytes() {
        return new SendQueueProbe(jvm.port()).sendQueueBytes();
    }

    /** The server's {@code /stats} ({@code collect}: after a full collection); empty when it does not answer. */
    Map<String, Long> stats(boolean collect) {
        return ProcessReadings.keyValues(STATS_CLIENT,
                URI.create("http://127.0.0.1:" + jvm.port() + "/stats" + (collect ? "?gc=true" : "")), Duration.ofSeconds(10));
    }

    @Override
    public void close() throws IOException {
        jvm.close();
    }
}
