package io.sluice.lab.s3;

import io.sluice.lab.ServerJvm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@link ClientMain} in a JVM of its own on this JVM's class path (and {@link ServerJvm#java()}),
 * driven line by line: {@link #awaitWarm()}, {@link #go()}, {@link #awaitResult()}, {@link #close()}.
 * Its stderr goes to a temporary file, quoted when it fails. Used by the harness's main thread only.
 */
final class ClientJvm implements AutoCloseable {

    private final Process process;
    private final BufferedReader stdout;
    private final Writer stdin;
    private final Path stderr;

    private ClientJvm(Process process, Path stderr) {
        this.process = process;
        this.stderr = stderr;
        this.stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    }

    /** Starts a client with {@code jvmOptions} (such as {@code -Xmx1g}) and {@link ClientMain}'s {@code args}. */
    static ClientJvm start(List<String> jvmOptions, List<String> args) throws IOException {
        List<String> command = new ArrayList<>(List.of(ServerJvm.java().toString(), "-XX:+ExitOnOutOfMemoryError"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ClientMain.class.getName()));
        command.addAll(args);
        Path stderr = Files.createTempFile("sluice-s3-client-", ".stderr");
        return new ClientJvm(new ProcessBuilder(command).redirectError(stderr.toFile()).start(), stderr);
    }

    /** Waits until the client's warm-up is done. */
    void awaitWarm() throws IOException {
        expect("WARM");
    }

    /** Starts the recorded transfers. */
    void go() throws IOException {
        stdin.write("GO\n");
        stdin.flush();
    }

    /** Waits for the recorded transfers' figures. */
    ClientResult awaitResult() throws IOException {
        return ClientResult.parse(expect(ClientResult.PREFIX.trim()));
    }

    /** The next line, which must start with {@code word}; else an IOException with why the client failed. */
    private String expect(String word) throws IOException {
        String line = stdout.readLine();
        if (line == null || !line.startsWith(word)) {
            throw new ClientFailure(why(line));
        }
        return line;
    }

    /** The client's own FAILED line, or else what it died of; a WRONG line is thrown as {@link TransferRun.WrongBytes}. */
    private String why(String line) throws IOException {
        if (line != null && line.startsWith("WRONG ")) {
            throw new TransferRun.WrongBytes(line.substring("WRONG ".length()));
        }
        if (line != null && line.startsWith("FAILED ")) {
            return line.substring("FAILED ".length());
        }
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<String> errors = Files.readAllLines(stderr);
        boolean outOfMemory = !process.isAlive() && process.exitValue() == 3
                || errors.stream().anyMatch(error -> error.contains("OutOfMemoryError"));
        return outOfMemory ? "OutOfMemoryError" : "the client printed " + line + "; stderr: "
                + String.join(" / ", errors.subList(Math.max(0, errors.size() - 5), errors.size()));
    }

    /** A client that failed or died; its message says why ({@code OutOfMemoryError} when it ran out of heap). */
    static final class ClientFailure extends IOException {
        ClientFailure(String why) {
            super(why);
        }
    }

    /** Lets the client exit (closing its stdin) and waits for it; killed if it has not ended after 30 s. */
    @Override
    public void close() throws IOException {
        try {
            stdin.close();
        } catch (IOException gone) {
            // the client has exited already
        }
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Files.deleteIfExists(stderr);
    }
}
