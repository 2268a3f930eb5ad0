package io.sluice.testkit;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A small tmpfs mounted by a test, for faults a real file system produces only when it is full or
 * read-only (permission bits do not stop root). Where mounting is refused the test is skipped,
 * except under {@code CI=true} (CI runs as root), where a skip would hide a missing check.
 */
public final class Tmpfs implements AutoCloseable {

    private final Path mountPoint; // immutable: any thread

    private Tmpfs(Path mountPoint) {
        this.mountPoint = mountPoint;
    }

    /**
     * Mounts a tmpfs of {@code sizeBytes} at {@code mountPoint}, an existing empty directory, or
     * skips the calling test with the reason (fails it under {@code CI=true}).
     */
    public static Tmpfs mount(Path mountPoint, long sizeBytes) {
        String failure = run(List.of(
                "mount", "-t", "tmpfs", "-o", "size=" + sizeBytes + ",mode=0777", "tmpfs", mountPoint.toString()));
        if (failure != null) {
            String reason = "cannot mount a tmpfs at " + mountPoint + " (needs root or CAP_SYS_ADMIN): " + failure;
            if ("true".equals(System.getenv("CI"))) {
                fail("CI=true, so this fault must be tested, but " + reason);
            }
            Assumptions.abort(reason);
        }
        return new Tmpfs(mountPoint);
    }

    public Path path() {
        return mountPoint;
    }

    /** Remounts read-only: every later write fails with EROFS, whatever the permission bits. */
    public void remountReadOnly() {
        String failure = run(List.of("mount", "-o", "remount,ro", mountPoint.toString()));
        if (failure != null) {
            fail("cannot remount " + mountPoint + " read-only: " + failure);
        }
    }

    /** Unmounts it; the files written there are gone. Fails the test if it cannot. */
    @Override
    public void close() {
        String failure = run(List.of("umount", mountPoint.toString()));
        if (failure != null) {
            fail("cannot unmount " + mountPoint + " (a descriptor still open inside?): " + failure);
        }
    }

    /** Runs a command; returns null on success or what went wrong. */
    private static String run(List<String> command) {
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            byte[] output;
            try (var out = process.getInputStream()) { // pipes would count as open descriptors
                output = out.readAllBytes();
            }
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return String.join(" ", command) + " did not finish in 30 s";
            }
            if (process.exitValue() != 0) {
                return String.join(" ", command) + " exited " + process.exitValue() + ": "
                        + new String(output, StandardCharsets.UTF_8).trim();
            }
            return null;
        } catch (IOException e) {
            return String.join(" ", command) + " could not run: " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
