package io.sluice.server.load;

import io.sluice.server.Lane;
import io.sluice.lab.ChildJvm;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A fresh server JVM per run ({@link ChildJvm}, optionally pinned with {@code taskset}), with what the harness
 * measures from outside: {@code /proc}, its GC log, {@code /metrics}, and {@code jcmd} (the one next to its java).
 */
record ServerProcess(ChildJvm jvm, GcLog gcLog, Path jcmd) implements AutoCloseable {

    private static final HttpClient METRICS_CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2))
            .build();

    static ServerProcess start(Lane lane, Path directory, int platformThreads, String maxHeap, String cpu)
            throws IOException {
        List<String> taskset = cpu != null && Files.isExecutable(Path.of("/usr/bin/taskset"))
                ? List.of("/usr/bin/taskset", "-c", cpu) : List.of();
        Path gcFile = Files.createTempFile("sluice-server-gc-", ".log");
        try {
            ChildJvm jvm = ChildJvm.main("server for lane " + lane.flag(), "io.sluice.server.Main")
                    .launcher(taskset).maxHeap(maxHeap).exitOnOutOfMemory()
                    .options(List.of("-Xlog:gc:file=" + gcFile + "::filecount=0"))
                    .args(List.of("--lane", lane.flag(), "--port", "0", "--dir", directory.toString(),
                            "--threads", Integer.toString(platformThreads)))
                    .start();
            jvm.awaitReady();
            return new ServerProcess(jvm, new GcLog(gcFile), ChildJvm.java().resolveSibling("jcmd"));
        } catch (IOException e) {
            Files.deleteIfExists(gcFile);
            throw e;
        }
    }

    int port() {
        return jvm.port();
    }

    URI uri(String target) {
        return URI.create("http://127.0.0.1:" + port() + target);
    }

    boolean alive() {
        return jvm.alive();
    }

    /** Why the server died; empty while it runs. */
    String death() throws IOException {
        return jvm.death();
    }

    /** Writes {@code jcmd PID command}'s output to a new temporary {@code prefix*.txt}; returns a note naming it. */
    String jcmdToFile(String command, String prefix) {
        try {
            Path file = Files.createTempFile(prefix, ".txt");
            String failure = jcmd(command, ProcessBuilder.Redirect.to(file.toFile()));
            if (failure.isEmpty()) {
                return command + " in " + file;
            }
            Files.deleteIfExists(file);
            return "no " + command + ": " + failure;
        } catch (IOException e) {
            return "no " + command + ": " + e.getMessage();
        }
    }

    /** Forces a full collection with {@code jcmd PID GC.run} and reads the heap after it from the GC log. */
    LiveSet forcedGcLiveSet() {
        int mark = gcLog.pauses();
        String failure = jcmd("GC.run", ProcessBuilder.Redirect.DISCARD);
        if (!failure.isEmpty()) {
            return LiveSet.failed(failure);
        }
        java.util.OptionalLong after = gcLog.lastFullAfterBytes(mark);
        return after.isPresent() ? new LiveSet(after.getAsLong(), "")
                : LiveSet.failed("no full pause in the GC log after jcmd GC.run");
    }

    /** Runs {@code jcmd PID command} with its output to {@code output}; returns why it failed, or empty. */
    private String jcmd(String command, ProcessBuilder.Redirect output) {
        if (!jvm.alive()) {
            return "server not running";
        }
        if (!Files.isExecutable(jcmd)) {
            return "no " + jcmd + " (a JRE without jcmd)";
        }
        try {
            Process attach = new ProcessBuilder(jcmd.toString(), Long.toString(jvm.pid()), command)
                    .redirectErrorStream(true).redirectOutput(output).start();
            if (!attach.waitFor(30, TimeUnit.SECONDS)) {
                attach.destroyForcibly();
                return "jcmd " + command + " did not answer within 30 s";
            }
            return attach.exitValue() == 0 ? "" : "jcmd " + command + " exited with " + attach.exitValue();
        } catch (IOException e) {
            return "jcmd failed: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /** The heap after a forced full collection: live bytes, or -1 and why not. */
    record LiveSet(long bytes, String failure) {
        static LiveSet failed(String why) {
            return new LiveSet(-1, why);
        }

        double mib() {
            return bytes < 0 ? Double.NaN : Scenarios.mib(bytes);
        }
    }

    Map<String, Long> procStatus() {
        return ProcessReadings.status(jvm.pid());
    }

    double cpuSeconds() {
        return ProcessReadings.cpuSeconds(jvm.pid());
    }

    /** The server's {@code /metrics}; empty if unreachable. */
    Map<String, Long> metrics() {
        return ProcessReadings.keyValues(METRICS_CLIENT, uri("/metrics"), Duration.ofSeconds(3));
    }

    /** {@code heapAllocatedBytes} of {@code /metrics}; -1 when it did not answer or its JVM does not measure it. */
    long heapAllocatedBytes() {
        return metrics().getOrDefault("heapAllocatedBytes", -1L);
    }

    @Override
    public void close() throws IOException {
        jvm.close();
        Files.deleteIfExists(gcLog.file());
    }
}
