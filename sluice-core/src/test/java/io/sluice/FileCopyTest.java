package io.sluice;

import io.sluice.testing.Bytes;
import io.sluice.testkit.OpenFiles;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FileCopyTest {

    @TempDir
    Path dir;

    /**
     * {@code FileChannel.read} and {@code write} emit the JDK's {@code jdk.FileRead}/{@code jdk.FileWrite}
     * flight-recorder events; {@code transferTo} moves the bytes inside the kernel and emits none.
     * The read -> write pipeline is the control: it must show up, or the test could not tell.
     */
    @Test
    void aFileToFileCopyIsZeroCopyNoByteIsReadIntoOrWrittenFromJava() throws Exception {
        byte[] content = Bytes.random(8 * 1024 * 1024 + 3, 12);
        Path source = Bytes.file(dir, "zero-copy-in", content);
        Path copied = dir.resolve("zero-copy-out");
        Path piped = dir.resolve("read-write-out");
        List<RecordedEvent> events;
        try (Recording recording = new Recording()) {
            recording.enable("jdk.FileRead").withThreshold(Duration.ZERO);
            recording.enable("jdk.FileWrite").withThreshold(Duration.ZERO);
            recording.start();
            assertEquals(
                    content.length,
                    ReactiveFile.of(source).copyTo(copied).toCompletableFuture().get(60, TimeUnit.SECONDS));
            assertEquals(
                    content.length,
                    ReactiveFile.of(piped)
                            .write(ReactiveFile.of(source).read())
                            .toCompletableFuture()
                            .get(60, TimeUnit.SECONDS));
            recording.stop();
            Path dump = dir.resolve("io.jfr");
            recording.dump(dump);
            events = RecordingFile.readAllEvents(dump);
        }
        assertEquals(List.of(), pathsOf(events, "jdk.FileWrite", copied), "copyTo wrote through Java buffers");
        assertTrue(pathsOf(events, "jdk.FileWrite", piped).size() > 0, "the control's writes were not seen");
        assertTrue(pathsOf(events, "jdk.FileRead", source).size() > 0, "the control's reads were not seen");
        assertArrayEquals(content, Files.readAllBytes(copied));
        assertArrayEquals(content, Files.readAllBytes(piped));
    }

    private static List<String> pathsOf(List<RecordedEvent> events, String type, Path file) {
        return events.stream()
                .filter(event -> event.getEventType().getName().equals(type))
                .map(event -> event.getString("path"))
                .filter(path -> path != null && path.equals(file.toString()))
                .collect(Collectors.toList());
    }

    @Test
    void copiesEveryByte() throws Exception {
        for (int size : new int[] {0, 1, 8 * 1024 * 1024 - 1, 8 * 1024 * 1024, 8 * 1024 * 1024 + 1, 20_000_000}) {
            byte[] content = Bytes.random(size, size);
            Path source = Bytes.file(dir, "in" + size, content);
            Path target = dir.resolve("out" + size);
            long copied =
                    ReactiveFile.of(source).copyTo(target).toCompletableFuture().get(60, TimeUnit.SECONDS);
            assertEquals(size, copied);
            assertEquals(Bytes.sha256(content), Bytes.sha256(Files.readAllBytes(target)), "size " + size);
        }
    }

    @Test
    void appendsAndSyncsWhenAsked() throws Exception {
        Path source = Bytes.file(dir, "in", new byte[] {3, 4});
        Path target = Bytes.file(dir, "out", new byte[] {1, 2});
        ReactiveFile.of(source)
                .copyTo(target, WriteOptions.append().withSync())
                .toCompletableFuture()
                .get();
        assertArrayEquals(new byte[] {1, 2, 3, 4}, Files.readAllBytes(target));
    }

    @Test
    void aMissingSourceFailsWithNoSuchFileExceptionAndCreatesNothing() {
        CompletionException exception = assertThrows(
                CompletionException.class,
                () -> ReactiveFile.of(dir.resolve("missing"))
                        .copyTo(dir.resolve("out"))
                        .toCompletableFuture()
                        .join());
        assertInstanceOf(NoSuchFileException.class, exception.getCause());
        assertTrue(Files.notExists(dir.resolve("out")));
    }

    @Test
    void cancellingBetweenSlicesStopsTheCopyAndClosesBothFiles() throws Exception {
        Path source = dir.resolve("big");
        try (RandomAccessFile file = new RandomAccessFile(source.toFile(), "rw")) {
            file.setLength(64L * 1024 * 1024); // sparse: 8 slices
        }
        ExecutorService single = Executors.newSingleThreadExecutor();
        try {
            AtomicInteger slices = new AtomicInteger();
            CompletableFuture<Long>[] stage = new CompletableFuture[1];
            Executor counting = task -> single.execute(() -> {
                if (slices.incrementAndGet() == 3) {
                    stage[0].cancel(true); // cancel while the copy is between slices
                }
                task.run();
            });
            stage[0] = new CompletableFuture<>();
            CompletableFuture<Long> copy = ReactiveFile.of(source)
                    .copyTo(dir.resolve("out"), WriteOptions.defaults().withExecutor(counting))
                    .toCompletableFuture();
            stage[0] = copy;
            assertThrows(CancellationException.class, copy::join);
            OpenFiles.awaitNoneUnder(dir);
            assertTrue(Files.size(dir.resolve("out")) < 64L * 1024 * 1024, "the copy stopped early");
        } finally {
            single.shutdownNow();
        }
    }

    @Test
    void badArgumentsThrowAtTheCall() {
        assertThrows(NullPointerException.class, () -> ReactiveFile.of(dir).copyTo(null));
        assertThrows(NullPointerException.class, () -> ReactiveFile.of(dir).copyTo(dir, null));
    }

    @Test
    void aDirectorySourceFails() {
        CompletionException exception = assertThrows(
                CompletionException.class,
                () -> ReactiveFile.of(dir)
                        .copyTo(dir.resolve("out"))
                        .toCompletableFuture()
                        .join());
        assertInstanceOf(IOException.class, exception.getCause());
    }
}
