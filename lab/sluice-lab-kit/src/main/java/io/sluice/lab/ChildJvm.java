package io.sluice.lab;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A JVM of its own started from this one (a server under load, a client, a benchmark fork): the command
 * line from a {@link Spec}, then, as the tool needs, a readiness line {@code READY port=N ...} on stdout,
 * a line conversation over stdin and stdout, why it died, and a stop that kills it if it does not end.
 * Its stderr goes to a temporary file (deleted on {@link #close()}) unless the spec sends it elsewhere.
 *
 * <p>Threading: one thread at a time (the harness's main thread) uses a child.
 */
public final class ChildJvm implements AutoCloseable {

    /** What a server prints first once it listens, then its port and a space. */
    public static final String READY = "READY port=";
    /** The exit status of a JVM that ran out of heap with {@code -XX:+ExitOnOutOfMemoryError}. */
    private static final int OUT_OF_MEMORY_EXIT = 3;

    private final String name;
    private final Process process;
    private final Path stderr;              // where stderr goes; null when inherited
    private final boolean stderrOwned;      // a temporary file close() deletes
    private final Duration stopWait;
    private final boolean stopsAtEndOfInput;
    private final BufferedReader stdout;
    private final Writer stdin;
    private int port = -1;                  // set by awaitReady

    private ChildJvm(Spec spec, Process process, Path stderr, boolean stderrOwned) {
        this.name = spec.name;
        this.process = process;
        this.stderr = stderr;
        this.stderrOwned = stderrOwned;
        this.stopWait = spec.stopWait;
        this.stopsAtEndOfInput = spec.stopsAtEndOfInput;
        this.stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    }

    /** The {@code java} a child runs on unless its spec names another: {@code -Dsluice.server.java}, or this JVM's. */
    public static Path java() {
        return Path.of(System.getProperty("sluice.server.java",
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    }

    /** A child called {@code name} (in messages) running {@code mainClass} on this JVM's class path. */
    public static Spec main(String name, String mainClass) {
        return new Spec(name, List.of("-cp", System.getProperty("java.class.path"), mainClass));
    }

    /** A child called {@code name} (in messages) running the executable {@code jar}. */
    public static Spec jar(String name, Path jar) {
        return new Spec(name, List.of("-jar", jar.toString()));
    }

    /**
     * How to start a child: {@code launcher java [-Xmx] [-XX:+ExitOnOutOfMemoryError] options (-cp CP main | -jar J)
     * args}, where its output goes and how it stops. Used by one thread.
     */
    public static final class Spec {

        private final String name;
        private final List<String> program;
        private List<String> launcher = List.of();
        private String java = ChildJvm.java().toString();
        private String maxHeap;                             // null: the JVM's default
        private boolean exitOnOutOfMemory;
        private List<String> options = List.of();
        private List<String> args = List.of();
        private Path output;                                // stdout and stderr together; null: stdout piped
        private boolean inheritIo;
        private boolean stopsAtEndOfInput;
        private Duration stopWait = Duration.ofSeconds(10);

        private Spec(String name, List<String> program) {
            this.name = name;
            this.program = program;
        }

        /** What runs {@code java}, such as {@code taskset -c 0}; nothing by default. */
        public Spec launcher(List<String> command) {
            this.launcher = List.copyOf(command);
            return this;
        }

        /** The {@code java} binary; {@link ChildJvm#java()} by default. */
        public Spec java(String binary) {
            this.java = Objects.requireNonNull(binary);
            return this;
        }

        /** {@code -Xmx}{@code size}, such as {@code 1g}. */
        public Spec maxHeap(String size) {
            this.maxHeap = size;
            return this;
        }

        /** {@code -XX:+ExitOnOutOfMemoryError}: an {@code OutOfMemoryError} ends the child with status 3. */
        public Spec exitOnOutOfMemory() {
            this.exitOnOutOfMemory = true;
            return this;
        }

        /** JVM options, after the heap and before the class path. */
        public Spec options(List<String> jvmOptions) {
            this.options = List.copyOf(jvmOptions);
            return this;
        }

        /** The program's arguments. */
        public Spec args(List<String> programArgs) {
            this.args = List.copyOf(programArgs);
            return this;
        }

        /** Stdin, stdout and stderr are this JVM's: nothing to read, no readiness line. */
        public Spec inheritIo() {
            this.inheritIo = true;
            return this;
        }

        /** Stdout and stderr both go to {@code log}, which the child keeps after it ends. */
        public Spec outputTo(Path log) {
            this.output = log;
            return this;
        }

        /**
         * The child ends by itself once its stdin closes: {@link #close()} closes stdin and waits {@code wait}
         * before killing it, rather than asking it to stop at once.
         */
        public Spec stopsAtEndOfInput(Duration wait) {
            this.stopsAtEndOfInput = true;
            this.stopWait = wait;
            return this;
        }

        /** The command line the child runs. */
        public List<String> command() {
            List<String> command = new ArrayList<>(launcher);
            command.add(java);
            if (maxHeap != null) {
                command.add("-Xmx" + maxHeap);
            }
            if (exitOnOutOfMemory) {
                command.add("-XX:+ExitOnOutOfMemoryError");
            }
            command.addAll(options);
            command.addAll(program);
            command.addAll(args);
            return command;
        }

        /** Starts the child. */
        public ChildJvm start() throws IOException {
            ProcessBuilder builder = new ProcessBuilder(command());
            if (inheritIo) {
                return new ChildJvm(this, builder.inheritIO().start(), null, false);
            }
            if (output != null) {
                builder.redirectErrorStream(true).redirectOutput(output.toFile());
                return new ChildJvm(this, builder.start(), output, false);
            }
            Path stderr = Files.createTempFile("sluice-child-", ".stderr");
            try {
                return new ChildJvm(this, builder.redirectError(stderr.toFile()).start(), stderr, true);
            } catch (IOException e) {
                Files.deleteIfExists(stderr);
                throw e;
            }
        }
    }

    /**
     * Reads the child's first line, which must be {@link #READY}; returns the port it names, also {@link #port()}
     * from now on.
     *
     * @throws IOException naming the child, its first line and its stderr if it did not start; it is given the
     *                     spec's wait to end (and finish its stderr), then killed and closed
     */
    public int awaitReady() throws IOException {
        String line = stdout.readLine();
        if (line == null || !line.startsWith(READY)) {
            try {
                if (!awaitExit(stopWait)) {
                    kill();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            String errors = String.join("\n", stderrLines());
            close();
            throw new IOException(name + " did not start: " + line + " / " + errors);
        }
        int end = line.indexOf(' ', READY.length());
        port = Integer.parseInt(line.substring(READY.length(), end < 0 ? line.length() : end));
        return port;
    }

    /** The port the child's readiness line named. */
    public int port() {
        if (port < 0) {
            throw new IllegalStateException(name + " has not said it is ready");
        }
        return port;
    }

    /** The child's next line on stdout; null once it closed stdout. */
    public String readLine() throws IOException {
        return stdout.readLine();
    }

    /** Writes {@code line} and a line break to the child's stdin. */
    public void send(String line) throws IOException {
        stdin.write(line + "\n");
        stdin.flush();
    }

    public long pid() {
        return process.pid();
    }

    public boolean alive() {
        return process.isAlive();
    }

    /** The CPU time the child has used so far, in nanoseconds; 0 where the platform does not say. */
    public long cpuNanos() {
        return process.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }

    /** Waits for the child to end; returns its exit status. */
    public int awaitExit() throws InterruptedException {
        return process.waitFor();
    }

    /** Waits at most {@code wait} for the child to end; returns whether it did. */
    public boolean awaitExit(Duration wait) throws InterruptedException {
        return process.waitFor(wait.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The exit status of a child that has ended. */
    public int exitStatus() {
        return process.exitValue();
    }

    /** Kills the child and waits for it to end. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    /** What the child wrote to stderr so far; empty when its stderr is inherited. */
    public List<String> stderrLines() throws IOException {
        return stderr == null || !Files.exists(stderr) ? List.of() : Files.readAllLines(stderr);
    }

    /** Whether the child ran out of heap: it ended with status 3, or said {@code OutOfMemoryError} on stderr. */
    public boolean outOfMemory() throws IOException {
        return !process.isAlive() && process.exitValue() == OUT_OF_MEMORY_EXIT
                || stderrLines().stream().anyMatch(line -> line.contains("OutOfMemoryError"));
    }

    /**
     * Why the child died: {@code OutOfMemoryError} ({@link #outOfMemory()}), or else its last line on stderr, or its
     * exit status; empty while it runs.
     */
    public String death() throws IOException {
        if (process.isAlive()) {
            return "";
        }
        if (outOfMemory()) {
            return "OutOfMemoryError";
        }
        List<String> lines = stderrLines();
        return lines.isEmpty() ? "exit status " + process.exitValue() : lines.get(lines.size() - 1);
    }

    /**
     * Stops the child: closes its stdin and, unless it {@link Spec#stopsAtEndOfInput ends by itself then}, asks it
     * to stop; kills it if it has not ended within the spec's wait (10 s by default). Deletes its temporary stderr.
     */
    @Override
    public void close() throws IOException {
        try {
            stdin.close();
        } catch (IOException gone) {
            // the child has exited already
        }
        if (!stopsAtEndOfInput) {
            process.destroy();
        }
        try {
            if (!process.waitFor(stopWait.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (stderrOwned) {
            Files.deleteIfExists(stderr);
        }
    }
}
