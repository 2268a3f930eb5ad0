package io.sluice.server.ws.load;

import io.sluice.server.ws.FanOutLane;
import io.sluice.server.load.ProcessReadings;
import io.sluice.server.load.SendQueueProbe;
import io.sluice.server.ws.FanOutMain;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The fan-out server in a JVM of its own ({@link FanOutMain}, this JVM's classpath and
 * {@code java}, or {@code -Dsluice.server.java}), with what the harness reads from outside: RSS,
 * CPU seconds and kernel send-queue bytes from {@code /proc}, and the server's {@code /stats}.
 *
 * @param process the server JVM
 * @param port the port it bound
 * @param stderr where its stderr goes
 */
record FanOutProcess(Process process, int port, Path stderr) implements AutoCloseable {

    private static final HttpClient STATS_CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    static FanOutProcess start(FanOutLane lane, String maxHeap, double messagesPerSecond, int sendBufferBytes)
            throws IOException {
        String java = System.getProperty("sluice.server.java",
                Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = List.of(java, "-Xmx" + maxHeap, "-XX:+ExitOnOutOfMemoryError",
                "-cp", System.getProperty("java.class.path"), FanOutMain.class.getName(),
                "--lane", lane.flag(), "--port", "0", "--rate", Double.toString(messagesPerSecond),
                "--send-buffer", Integer.toString(sendBufferBytes));
        Path stderr = Files.createTempFile("sluice-ws-server-", ".stderr");
        Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null || !line.startsWith("READY port=")) {
            process.destroyForcibly();
            throw new IOException("ws server for lane " + lane.flag() + " did not start: " + line + " / "
                    + Files.readString(stderr));
        }
        int port = Integer.parseInt(line.substring("READY port=".length(), line.indexOf(' ', 11)));
        return new FanOutProcess(process, port, stderr);
    }

    URI uri() {
        return URI.create("ws://127.0.0.1:" + port + "/ws");
    }

    boolean alive() {
        return process.isAlive();
    }

    /** "OutOfMemoryError" when the server died of it, its exit status when it died otherwise, empty while it runs. */
    String death() throws IOException {
        if (process.isAlive()) {
            return "";
        }
        boolean outOfMemory = process.exitValue() == 3
                || Files.readAllLines(stderr).stream().anyMatch(line -> line.contains("OutOfMemoryError"));
        return outOfMemory ? "OutOfMemoryError" : "exit status " + process.exitValue();
    }

    /** {@code VmRSS} of the server in bytes, -1 when it is gone. */
    long rssBytes() {
        return ProcessReadings.rssBytes(process.pid());
    }

    /** User + system CPU seconds of the server so far. */
    double cpuSeconds() {
        return ProcessReadings.cpuSeconds(process.pid());
    }

    /** Bytes the kernel holds in the send queues of the server's connections, -1 where /proc/net/tcp is absent. */
    long sendQueueBytes() {
        return new SendQueueProbe(port).sendQueueBytes();
    }

    /** The server's {@code /stats} ({@code collect}: after a full collection); empty when it does not answer. */
    Map<String, Long> stats(boolean collect) {
        return ProcessReadings.keyValues(STATS_CLIENT,
                URI.create("http://127.0.0.1:" + port + "/stats" + (collect ? "?gc=true" : "")), Duration.ofSeconds(10));
    }

    @Override
    public void close() throws IOException {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Files.deleteIfExists(stderr);
    }
}
