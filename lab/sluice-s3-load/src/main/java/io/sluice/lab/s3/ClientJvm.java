package io.sluice.lab.s3;

import io.sluice.lab.ChildJvm;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * A {@link ClientMain} in a {@link ChildJvm}, driven line by line: {@link #awaitWarm()}, {@link #go()},
 * {@link #awaitResult()}, {@link #close()} (which closes its stdin, so that it exits). Used by the harness's main
 * thread only.
 */
final class ClientJvm implements AutoCloseable {

    private final ChildJvm jvm;

    private ClientJvm(ChildJvm jvm) {
        this.jvm = jvm;
    }

    /** Starts a client with {@code jvmOptions} (such as {@code -Xmx1g}) and {@link ClientMain}'s {@code args}. */
    static ClientJvm start(List<String> jvmOptions, List<String> args) throws IOException {
        return new ClientJvm(ChildJvm.main("S3 client", ClientMain.class.getName()).exitOnOutOfMemory()
                .options(jvmOptions).args(args).stopsAtEndOfInput(Duration.ofSeconds(30)).start());
    }

    /** Waits until the client's warm-up is done. */
    void awaitWarm() throws IOException {
        expect("WARM");
    }

    /** Starts the recorded transfers. */
    void go() throws IOException {
        jvm.send("GO");
    }

    /** Waits for the recorded transfers' figures. */
    ClientResult awaitResult() throws IOException {
        return ClientResult.parse(expect(ClientResult.PREFIX.trim()));
    }

    /** The next line, which must start with {@code word}; else an IOException with why the client failed. */
    private String expect(String word) throws IOException {
        String line = jvm.readLine();
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
            jvm.awaitExit(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (jvm.outOfMemory()) {
            return "OutOfMemoryError";
        }
        List<String> errors = jvm.stderrLines();
        return "the client printed " + line + "; stderr: "
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
        jvm.close();
    }
}
