package io.sluice.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A small tmpfs mounted over a directory, for tests of a full disk; {@link #close()} unmounts it.
 * Mounting needs root, as CI runs: a test that cannot mount one is skipped with the reason, except
 * where {@link #required()} says a full disk must be tested.
 */
public final class Tmpfs implements AutoCloseable {

    private final Path mountPoint;

    private Tmpfs(Path mountPoint) {
        this.mountPoint = mountPoint;
    }

    /**
     * Mounts a tmpfs of {@code sizeBytes} at {@code mountPoint}, an existing directory.
     *
     * @throws IOException with the reason (usually: not root) if it cannot be mounted
     */
    public static Tmpfs mount(Path mountPoint, long sizeBytes) throws IOException {
        run("mount", "-t", "tmpfs", "-o", "size=" + sizeBytes, "tmpfs", mountPoint.toString());
        return new Tmpfs(mountPoint);
    }

    /** Whether a test must fail rather than skip when it cannot mount one: under {@code CI=true}. */
    public static boolean required() {
        return "true".equals(System.getenv("CI"));
    }

    /** Unmounts it; the files written there are gone. */
    @Override
    public void close() throws IOException {
        run("umount", mountPoint.toString());
    }

    private static void run(String... command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (process.waitFor() != 0) {
                throw new IOException(String.join(" ", command) + ": " + output.strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", command), e);
        }
    }
}
