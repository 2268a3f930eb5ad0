package io.sluice.spring;

import io.sluice.testkit.Tmpfs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;

import static io.sluice.spring.DataBufferFilesWriteTest.random;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A write that fails in the middle: the disk fills up (a 256 KiB tmpfs, which needs root, as CI
 * runs; elsewhere skipped with the reason, except under {@code CI=true}, where it fails). Every
 * buffer sent is released once: those written, the one whose write failed, and those still queued.
 */
class DiskFullWriteTest {

    @TempDir
    Path dir;

    @Test
    void aFullDiskFailsTheWriteAndEveryBufferIsReleasedOnce() throws Exception {
        Path mountPoint = Files.createDirectory(dir.resolve("small"));
        try (Tmpfs disk = Tmpfs.mount(mountPoint, 256 * 1024)) {
            TrackedBuffers buffers = new TrackedBuffers(random(1_000_000, 31), 1000, null);

            Throwable signalled = DataBufferFiles.write(buffers.flux(), mountPoint.resolve("full"))
                    .map(written -> (Throwable) new AssertionError("wrote " + written + " bytes to a 256 KiB disk"))
                    .onErrorResume(Mono::just)
                    .block(Duration.ofSeconds(30));

            assertInstanceOf(IOException.class, signalled);
            buffers.awaitAllReleased();
            assertTrue(buffers.createdCount() > 256, "the disk filled up mid-stream: " + buffers.createdCount());
            assertEquals(List.of(), buffers.problems());
            assertEquals(Collections.nCopies(buffers.createdCount(), 1), buffers.releaseCounts());
        }
    }
}
