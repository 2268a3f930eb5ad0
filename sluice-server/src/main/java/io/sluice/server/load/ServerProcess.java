package io.sluice.server.load;

import io.sluice.server.Lane;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * A fresh server JVM per run (optionally pinned with {@code taskset}), with what the harness
 * measures from outside: RSS from {@code /proc}, CPU seconds, and the {@code /metrics} endpoint.
 *
 * @param process the server JVM
 * @param port the port it bound
 * @param stderr where its stderr goes
 * @param gcLog its GC log
 * @param jcmd the {@code jcmd} next to its {@code java}
 */
record ServerProcess(Process process, int port, Path stderr, GcLog gcLog, Path jcmd) implements AutoCloseable {

    /** Reads every server's {@code /metrics}. */
    private static final HttpClient METRICS_CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2))
            .build();

    static ServerProcess start(Lane lane, Path directory, int platformThreads, String maxHeap, String cpu)
            throws IOException {
        List<String> command = new ArrayList<>();
        if (cpu != null && Files.isExecutable(Path.of("/usr/bin/taskset"))) {
            command.addAll(List.of("/usr/bin/taskset", "-c", cpu));
        }
        String java = System.getProperty("sluice.server.java",
                Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Path gcFile = Files.createTempFile("sluice-server-gc-", ".log");
        command.addAll(List.of(java, "-Xmx" + maxHeap, "-XX:+ExitOnOutOfMemoryError",
                "-Xlog:gc:file=" + gcFile + "::filecount=0",
                "-cp", System.getProperty("java.class.path"), "io.sluice.server.Main",
                "--lane", lane.flag(), "--port", "0", "--dir", directory.toString(),
                "--threads", Integer.toString(platformThreads)));
        Path stderr = Files.createTempFile("sluice-server-", ".stderr");
        Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null || !line.startsWith("READY port=")) {
            process.destroyForcibly();
            Files.deleteIfExists(gcFile);
            throw new IOException("server for lane " + lane.flag() + " did not start: " + line + " / "
                    + Files.readString(stderr));
        }
        int port = Integer.parseInt(line.substring("READY port=".length(), line.indexOf(' ', 11)));
        return new ServerProcess(process, port, stderr, new GcLog(gcFile), Path.of(java).resolveSibling("jcmd"));
    }

    URI uri(String target) {
        return URI.create("http://127.0.0.1:" + port + target);
    }

    boolean alive() {
        return process.isAlive();
    }

    /**
     * Why the server died: {@code OutOfMemoryError} ({@code -XX:+ExitOnOutOfMemoryError} exits with
     * status 3 and prints "Terminating due to ..."), or else the last line it wrote to stderr (its
     * exit status when there is none); empty while it runs.
     */
    String death() throws IOException {
        if (process.isAlive()) {
            return "";
        }
        List<String> lines = Files.readAllLines(stderr);
        if (process.exitValue() == 3 || lines.stream().anyMatch(line -> line.contains("OutOfMemoryError"))) {
            return "OutOfMemoryError";
        }
        return lines.isEmpty() ? "exit status " + process.exitValue() : lines.get(lines.size() - 1);
    }

    /**
     * Writes {@code jcmd PID command} (such as {@code Thread.print} for a step in which the server
     * answered nothing, or {@code GC.class_histogram}, itself a full GC) to a new file in the
     * temporary directory, named {@code prefix*.txt}; returns a note naming the file, or saying why
     * there is none.
     */
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

    /**
     * Forces a full collection with {@code jcmd PID GC.run} (the {@code jcmd} next to the server's
     * {@code java}) and reads the heap right after it from the GC log.
     */
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
        if (!process.isAlive()) {
            return "server not running";
        }
        if (!Files.isExecutable(jcmd)) {
            return "no " + jcmd + " (a JRE without jcmd)";
        }
        try {
            Process attach = new ProcessBuilder(jcmd.toString(), Long.toString(process.pid()), command)
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

    /**
     * The heap after a forced full collection.
     *
     * @param bytes live bytes, or -1 when not measured
     * @param failure why not, or empty
     */
    record LiveSet(long bytes, String failure) {
        static LiveSet failed(String why) {
            return new LiveSet(-1, why);
        }

        double mib() {
            return bytes < 0 ? Double.NaN : Scenarios.mib(bytes);
        }
    }

    /** {@code VmRSS}, {@code VmHWM} (peak RSS) and {@code Threads} from /proc, in bytes or counts. */
    Map<String, Long> procStatus() {
        Map<String, Long> values = new TreeMap<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
                String[] parts = line.split("\\s+");
                switch (parts[0]) {
                    case "VmRSS:", "VmHWM:" -> values.put(parts[0].substring(0, 5), Long.parseLong(parts[1]) * 1024);
                    case "Threads:" -> values.put("Threads", Long.parseLong(parts[1]));
                    default -> { } // every other line
                }
            }
        } catch (IOException | RuntimeException e) {
            // the process is gone: no values
        }
        return values;
    }

    /** User + system CPU seconds of the server so far. */
    double cpuSeconds() {
        return ProcessReadings.cpuSeconds(process.pid());
    }

    /** The server's own view: heap, heap allocated, direct memory, threads, queued bytes; empty if unreachable. */
    Map<String, Long> metrics() {
        return ProcessReadings.keyValues(METRICS_CLIENT, uri("/metrics"), Duration.ofSeconds(3));
    }

    /**
     * The heap the server has allocated so far ({@code heapAllocatedBytes} of {@code /metrics}),
     * -1 when {@code /metrics} did not answer or its JVM does not measure allocation.
     */
    long heapAllocatedBytes() {
        return metrics().getOrDefault("heapAllocatedBytes", -1L);
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
        Files.deleteIfExists(gcLog.file());
    }
}
