package io.sluice.reliability;

import io.sluice.ReactiveFile;
import io.sluice.WriteOptions;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A file written or copied with {@code withSync()} survives a crash only if its directory entry
 * does too: the directory is forced after the file. A power cut cannot be simulated in a unit
 * test (and the SIGKILL of {@code CrashTest} keeps the page cache), so the call itself is observed
 * as the JDK's {@code jdk.FileForce} flight-recorder event, which names the forced path.
 */
class DirectoryForceTest {

    @TempDir
    Path directory;

    @Test
    void aSyncWriteOrCopyForcesTheDirectoryAfterTheFileAndAPlainOneDoesNot() throws Exception {
        Path written = directory.resolve("written");
        Path source = Files.write(directory.resolve("source"), Content.bytes(4, 100_000));
        Path copied = directory.resolve("copied");
        Path plain = directory.resolve("plain");
        WriteOptions sync = WriteOptions.defaults().withSync();

        List<String> forced = forcedPaths(() ->
                Stages.value(ReactiveFile.of(written).write(Flux.just(ByteBuffer.wrap(new byte[] {1, 2, 3})), sync)));
        assertEquals(
                List.of(written.toString(), directory.toString()),
                forced,
                "a sync write forces the new file, then its directory");

        forced = forcedPaths(() -> Stages.value(ReactiveFile.of(source).copyTo(copied, sync)));
        assertEquals(
                List.of(copied.toString(), directory.toString()),
                forced,
                "a sync copy forces the new file, then its directory");

        forced = forcedPaths(() ->
                Stages.value(ReactiveFile.of(plain).write(Flux.just(ByteBuffer.wrap(new byte[] {1})))));
        assertEquals(List.of(), forced, "a write without sync forces nothing");
        assertTrue(Files.exists(plain));
    }

    @Test
    void aSyncWriteThroughARelativePathForcesTheDirectoryItLandsIn() throws Exception {
        Path relative = Paths.get("").toAbsolutePath().relativize(directory.resolve("relative"));
        assertFalse(relative.isAbsolute());

        List<String> forced = forcedPaths(() -> Stages.value(ReactiveFile.of(relative)
                .write(
                        Flux.just(ByteBuffer.wrap(new byte[] {1})),
                        WriteOptions.defaults().withSync())));

        assertTrue(forced.contains(directory.toString()), "the directory was not forced: " + forced);
    }

    /** The absolute paths {@code FileChannel.force} was called on while {@code action} ran, in order. */
    private List<String> forcedPaths(Callable<?> action) throws Exception {
        try (Recording recording = new Recording()) {
            recording.enable("jdk.FileForce").withThreshold(Duration.ZERO);
            recording.start();
            action.call();
            recording.stop();
            Path dump = Files.createTempFile("forces", ".jfr");
            try {
                recording.dump(dump);
                return RecordingFile.readAllEvents(dump).stream()
                        .filter(event -> event.getEventType().getName().equals("jdk.FileForce"))
                        .sorted((left, right) -> left.getStartTime().compareTo(right.getStartTime()))
                        .map(DirectoryForceTest::absolutePath)
                        .filter(path -> path.startsWith(directory.toString()))
                        .collect(Collectors.toList());
            } finally {
                Files.delete(dump);
            }
        }
    }

    private static String absolutePath(RecordedEvent event) {
        String path = event.getString("path");
        return path == null ? "" : Paths.get(path).toAbsolutePath().normalize().toString();
    }
}
