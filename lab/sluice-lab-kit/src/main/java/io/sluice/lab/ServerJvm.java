package io.sluice.lab;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A server under load in a JVM of its own, on this JVM's classpath, whose first line on stdout is
 * {@code READY port=N ...}; its stderr goes to a temporary file, read to say why it died.
 */
public record ServerJvm(Process process, int port, Path stderr) implements AutoCloseable {

    private static final String READY = "READY port=";

    /** The {@code java} a server runs on: {@code -Dsluice.server.java}, or this JVM's. */
    public static Path java() {
        return Path.of(System.getProperty("sluice.server.java",
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    }

    /**
     * Starts {@code launcher} (such as {@code taskset -c 0}, or nothing), then {@link #java()} with
     * {@code -Xmx}{@code maxHeap}, {@code -XX:+ExitOnOutOfMemoryError} and {@code jvmOptions}, running
     * {@code mainClass} with {@code args}; returns once the server said it is ready.
     *
     * @throws IOException naming {@code name} and the server's first line and stderr if it did not start
     */
    public static ServerJvm start(String name, List<String> launcher, String maxHeap, List<String> jvmOptions,
                                  String mainClass, List<String> args) throws IOException {
        List<String> command = new ArrayList<>(launcher);
        command.addAll(List.of(java().toString(), "-Xmx" + maxHeap, "-XX:+ExitOnOutOfMemoryError"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
        command.addAll(args);
        Path stderr = Files.createTempFile("sluice-server-", ".stderr");
        Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        String line = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))
                .readLine();
        if (line == null || !line.startsWith(READY)) {
            process.destroyForcibly();
            String errors = Files.readString(stderr);
            Files.deleteIfExists(stderr);
            throw new IOException(name + " did not start: " + line + " / " + errors);
        }
        int port = Integer.parseInt(line.substring(READY.length(), line.indexOf(' ', READY.length())));
        return new ServerJvm(process, port, stderr);
    }

    public boolean alive() {
        return process.isAlive();
    }

    /**
     * Why the server died: {@code OutOfMemoryError} (exit status 3 or said on stderr), or else its
     * last line on stderr, or its exit status; empty while it runs.
     */
    public String death() throws IOException {
        if (process.isAlive()) {
            return "";
        }
        List<String> lines = Files.readAllLines(stderr);
        if (process.exitValue() == 3 || lines.stream().anyMatch(line -> line.contains("OutOfMemoryError"))) {
            return "OutOfMemoryError";
        }
        return lines.isEmpty() ? "exit status " + process.exitValue() : lines.get(lines.size() - 1);
    }

    /** Stops the server (killed if it has not ended 10 s after being asked) and deletes its stderr file. */
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
