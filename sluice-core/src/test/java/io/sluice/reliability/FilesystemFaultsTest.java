package io.sluice.reliability;

import io.sluice.ReactiveFile;
import io.sluice.ReadOptions;
import io.sluice.WriteOptions;
import io.sluice.testkit.OpenFiles;
import io.sluice.testkit.Tmpfs;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Faults of the file system itself, on real files (the fault matrix in docs/RELIABILITY.md).
 * Each ends in one error carrying the original {@link IOException}, and nothing stays open.
 */
class FilesystemFaultsTest {

    private static final WriteOptions PLAIN = WriteOptions.defaults();
    private static final WriteOptions ATOMIC = WriteOptions.defaults().withAtomicReplace();

    @TempDir
    Path directory;

    private List<String> baselineFds;

    @BeforeEach
    void baseline() {
        baselineFds = OpenFiles.targets();
    }

    @Test
    void diskFullFailsWithEnospcClosesTheFileAndCancelsUpstream() throws Exception {
        Path mountPoint = Files.createDirectory(directory.resolve("small"));
        try (Tmpfs tmpfs = Tmpfs.mount(mountPoint, 256 * 1024)) {
            AtomicInteger cancelled = new AtomicInteger();
            Throwable failure =
                    Stages.failure(ReactiveFile.of(tmpfs.path().resolve("full")).write(endless(cancelled), PLAIN));

            assertNoSpace(failure);
            AtomicReplaceTest.awaitEquals(1, cancelled, "upstream cancelled");
            OpenFiles.awaitClosed(mountPoint, baselineFds);
        }
    }

    @Test
    void diskFullAtRandomPointsInAtomicModeLeavesTheTargetUntouched() throws Exception {
        Path mountPoint = Files.createDirectory(directory.resolve("small"));
        Random random = new Random(5);
        try (Tmpfs tmpfs = Tmpfs.mount(mountPoint, 1024 * 1024)) {
            Path target = tmpfs.path().resolve("target");
            byte[] old = Content.bytes(1, 64 * 1024);
            Files.write(target, old);
            for (int run = 0; run < 6; run++) {
                Path filler = Files.write(tmpfs.path().resolve("filler"), new byte[random.nextInt(800 * 1024)]);
                AtomicInteger cancelled = new AtomicInteger();

                Throwable failure = Stages.failure(ReactiveFile.of(target).write(endless(cancelled), ATOMIC));

                assertNoSpace(failure);
                assertEquals(Content.sha256(old), Content.sha256(target), "run " + run);
                Stages.awaitNoTemporaries(tmpfs.path());
                AtomicReplaceTest.awaitEquals(1, cancelled, "upstream cancelled");
                Files.delete(filler);
            }
            OpenFiles.awaitClosed(mountPoint, baselineFds);
        }
    }

    @Test
    void diskFullDuringACopyFailsWithEnospcAndClosesBothFiles() throws Exception {
        Path source = directory.resolve("source");
        Files.write(source, Content.bytes(2, 1024 * 1024));
        Path mountPoint = Files.createDirectory(directory.resolve("small"));
        try (Tmpfs tmpfs = Tmpfs.mount(mountPoint, 256 * 1024)) {
            Throwable failure =
                    Stages.failure(ReactiveFile.of(source).copyTo(tmpfs.path().resolve("copy")));

            assertNoSpace(failure);
            OpenFiles.awaitClosed(directory, baselineFds);
        }
    }

    @Test
    void aMissingParentDirectoryFailsWithNoSuchFile() throws Exception {
        Path target = directory.resolve("missing").resolve("file");
        for (WriteOptions options : List.of(PLAIN, ATOMIC)) {
            Throwable failure =
                    Stages.failure(ReactiveFile.of(target).write(Content.publisher(new byte[10], 4, 1), options));
            assertInstanceOf(NoSuchFileException.class, failure, options.toString());
            assertTrue(failure.getMessage().contains(target.toString()), failure.getMessage());
        }
        Path source = Files.write(directory.resolve("source"), new byte[10]);
        Throwable copyFailure = Stages.failure(ReactiveFile.of(source).copyTo(target));
        assertInstanceOf(NoSuchFileException.class, copyFailure);
        assertTrue(copyFailure.getMessage().contains(target.toString()), copyFailure.getMessage());

        RecordingSubscriber reader = new RecordingSubscriber(1);
        ReactiveFile.of(target).read().subscribe(reader);
        Throwable readFailure = reader.awaitOneError();
        assertInstanceOf(NoSuchFileException.class, readFailure);
        assertTrue(readFailure.getMessage().contains(target.toString()), readFailure.getMessage());
        OpenFiles.awaitClosed(directory, baselineFds);
    }

    @Test
    void aDirectoryAsTargetFailsNamingIt() throws Exception {
        Path target = Files.createDirectory(directory.resolve("dir"));
        for (WriteOptions options : List.of(PLAIN, ATOMIC)) {
            Throwable failure =
                    Stages.failure(ReactiveFile.of(target).write(Content.publisher(new byte[10], 4, 1), options));
            assertInstanceOf(FileSystemException.class, failure, options.toString());
            assertTrue(failure.getMessage().contains(target.toString()), failure.getMessage());
            assertTrue(failure.getMessage().contains("Is a directory"), failure.getMessage());
        }
        Path source = Files.write(directory.resolve("source"), new byte[10]);
        Throwable copyFailure = Stages.failure(ReactiveFile.of(source).copyTo(target));
        assertInstanceOf(FileSystemException.class, copyFailure);
        assertTrue(copyFailure.getMessage().contains(target.toString()), copyFailure.getMessage());

        RecordingSubscriber reader = new RecordingSubscriber(1);
        ReactiveFile.of(target).read().subscribe(reader);
        Throwable readFailure = reader.awaitOneError();
        assertTrue(readFailure.getMessage().contains(target.toString()), readFailure.getMessage());
        assertTrue(readFailure.getMessage().contains("directory"), readFailure.getMessage());
        assertEquals(List.of(), Stages.temporaries(directory));
        OpenFiles.awaitClosed(directory, baselineFds);
    }

    @Test
    void aReadOnlyFileSystemFailsWritesWithErofsAndStillReads() throws Exception {
        Path mountPoint = Files.createDirectory(directory.resolve("ro"));
        try (Tmpfs tmpfs = Tmpfs.mount(mountPoint, 1024 * 1024)) {
            Path existing = tmpfs.path().resolve("existing");
            byte[] old = Content.bytes(3, 100_000);
            Files.write(existing, old);
            tmpfs.remountReadOnly();

            for (WriteOptions options : List.of(PLAIN, ATOMIC, WriteOptions.append())) {
                Throwable failure =
                        Stages.failure(ReactiveFile.of(existing).write(Content.publisher(new byte[10], 4, 1), options));
                assertInstanceOf(FileSystemException.class, failure, options.toString());
                assertTrue(failure.getMessage().contains("Read-only file system"), failure.getMessage());
            }
            Throwable copyFailure =
                    Stages.failure(ReactiveFile.of(existing).copyTo(tmpfs.path().resolve("copy")));
            assertTrue(copyFailure.getMessage().contains("Read-only file system"), copyFailure.getMessage());

            RecordingSubscriber reader = new RecordingSubscriber(Long.MAX_VALUE);
            ReactiveFile.of(existing).read().subscribe(reader);
            reader.awaitTerminal();
            assertEquals(List.of(), reader.errors);
            assertEquals(Content.sha256(old), Content.sha256(reader.chunks));
            OpenFiles.awaitClosed(mountPoint, baselineFds);
        }
    }

    @Test
    void aFileDeletedWhileBeingReadIsReadWholeFromTheOpenDescriptor() throws Exception {
        Path file = directory.resolve("doomed");
        byte[] content = Content.bytes(4, 300_000);
        Files.write(file, content);
        RecordingSubscriber reader = new RecordingSubscriber(1);
        ReactiveFile.of(file).read(ReadOptions.defaults().withChunkSize(4096)).subscribe(reader);
        reader.awaitFirstChunk();

        Files.delete(file); // POSIX: the inode lives while the descriptor is open
        reader.request(Long.MAX_VALUE);

        reader.awaitTerminal();
        assertEquals(List.of(), reader.errors);
        assertEquals(Content.sha256(content), Content.sha256(reader.chunks));
        OpenFiles.awaitClosed(directory, baselineFds);
    }

    @Test
    void aFileTruncatedWhileBeingReadFailsWithEofNamingTheShortfall() throws Exception {
        Path file = directory.resolve("shrinking");
        Files.write(file, Content.bytes(5, 300_000));
        RecordingSubscriber reader = new RecordingSubscriber(1);
        ReactiveFile.of(file).read(ReadOptions.defaults().withChunkSize(4096)).subscribe(reader);
        reader.awaitFirstChunk();

        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(10_000);
        }
        reader.request(Long.MAX_VALUE);

        Throwable failure = reader.awaitOneError();
        assertInstanceOf(EOFException.class, failure);
        assertTrue(failure.getMessage().contains("shrank"), failure.getMessage());
        OpenFiles.awaitClosed(directory, baselineFds);
    }

    @Test
    void copyingAFileOntoItselfFailsAndKeepsItsContent() throws Exception {
        Path file = directory.resolve("self");
        byte[] content = Content.bytes(6, 100_000);
        Files.write(file, content);

        Throwable failure = Stages.failure(
                ReactiveFile.of(file).copyTo(directory.resolve(".").resolve("self")));

        assertInstanceOf(FileSystemException.class, failure);
        assertTrue(failure.getMessage().contains("same file"), failure.getMessage());
        assertEquals(Content.sha256(content), Content.sha256(file), "copyTo(itself) truncated the source: data lost");
        OpenFiles.awaitClosed(directory, baselineFds);
    }

    @Test
    void anAtomicCopyOntoItselfKeepsTheContent() throws Exception {
        Path file = directory.resolve("self");
        byte[] content = Content.bytes(6, 100_000);
        Files.write(file, content);

        assertEquals(content.length, Stages.value(ReactiveFile.of(file).copyTo(file, ATOMIC)));

        assertEquals(Content.sha256(content), Content.sha256(file));
        OpenFiles.awaitClosed(directory, baselineFds);
    }

    /** An upstream that never ends, counting its cancellations. */
    static Flux<ByteBuffer> endless(AtomicInteger cancelled) {
        return Flux.<ByteBuffer>generate(sink -> sink.next(ByteBuffer.wrap(new byte[16 * 1024])))
                .doOnCancel(cancelled::incrementAndGet);
    }

    private static void assertNoSpace(Throwable failure) {
        assertInstanceOf(IOException.class, failure);
        assertTrue(
                String.valueOf(failure.getMessage()).contains("No space left on device"),
                "expected ENOSPC, got " + failure);
    }
}
