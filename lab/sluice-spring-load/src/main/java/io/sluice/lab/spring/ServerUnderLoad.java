package io.sluice.lab.spring;

import io.sluice.lab.ChildJvm;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The application the harness measures: one it started (a {@link ChildJvm} on loopback, which it stops
 * on {@link #close()}) or one already running at a URL, started with {@code --sluice.stats=true}.
 * Used by the harness's main thread only.
 */
final class ServerUnderLoad implements AutoCloseable {

    /** The server's own figures at one moment: its CPU time just before and just after the full GC that precedes the heap reading. */
    record Stats(long cpuNanos, long heapAfterGcBytes, long peakRssBytes, long cpuAfterGcNanos) {
        /** The CPU from {@code since}'s answer to this one's, the full GCs the two calls ran left out. */
        long cpuSince(Stats since) {
            return cpuNanos - since.cpuAfterGcNanos;
        }
    }

    private final URI base;
    private final ChildJvm jvm;      // null for a server the harness did not start
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private ServerUnderLoad(URI base, ChildJvm jvm) {
        this.base = base;
        this.jvm = jvm;
    }

    /** The running server at {@code base}. */
    static ServerUnderLoad at(URI base) {
        return new ServerUnderLoad(base, null);
    }

    /** Starts {@code jar} with the storage at {@code storage} and waits until it answers. */
    static ServerUnderLoad start(Path jar, Path storage, List<String> jvmOptions) throws IOException, InterruptedException {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        ChildJvm.Spec spec = ChildJvm.jar("the application", jar).options(jvmOptions)
                .args(List.of("--server.address=127.0.0.1", "--server.port=" + port, "--sluice.storage=" + storage,
                        "--sluice.stats=true", "--logging.level.root=WARN"))
                .inheritIo();
        ServerUnderLoad server = new ServerUnderLoad(URI.create("http://127.0.0.1:" + port), spec.start());
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            try {
                server.stats();
                return server;
            } catch (IOException notYet) {
                if (!server.jvm.alive() || System.nanoTime() > deadline) {
                    server.close();
                    throw new IOException("the application did not start: " + spec.command(), notYet);
                }
                Thread.sleep(200); // polling a starting JVM: there is nothing to await
            }
        }
    }

    URI base() {
        return base;
    }

    /** The server's CPU time so far, its heap after a full GC now, and its peak RSS since the last reset. */
    Stats stats() throws IOException, InterruptedException {
        String[] fields = http.send(HttpRequest.newBuilder(base.resolve("/stats")).build(), BodyHandlers.ofString())
                .body().trim().split(" ");
        if (fields.length != 4) {
            throw new IOException("not a stats answer (start the application with --sluice.stats=true): "
                    + String.join(" ", fields));
        }
        return new Stats(Long.parseLong(fields[0]), Long.parseLong(fields[1]), Long.parseLong(fields[2]),
                Long.parseLong(fields[3]));
    }

    /** Starts a new peak RSS. */
    void resetPeak() throws IOException, InterruptedException {
        http.send(HttpRequest.newBuilder(base.resolve("/stats/peak")).POST(HttpRequest.BodyPublishers.noBody()).build(),
                BodyHandlers.discarding());
    }

    @Override
    public void close() throws IOException {
        if (jvm != null) {
            jvm.close();
        }
    }
}
