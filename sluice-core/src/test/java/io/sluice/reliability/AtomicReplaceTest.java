package io.sluice.reliability;

import io.sluice.IoExecutors;
import io.sluice.ReactiveFile;
import io.sluice.WriteMode;
import io.sluice.WriteOptions;
import io.sluice.internal.write.AtomicFileSink;
import io.sluice.internal.write.AtomicTemporaries;
import io.sluice.internal.write.Writes;
import io.sluice.testkit.OpenFiles;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Atomic replace (invariants A1-A3 of {@link AtomicFileSink}) on a real file system. */
class AtomicReplaceTest {

    private static final WriteOptions ATOMIC = WriteOptions.defaults().withAtomicReplace();

    @TempDir
    Path directory;

    private Path target;
    private byte[] oldContent;
    private List<String> baselineFds;

    @BeforeEach
    void oldTarget() throws IOException {
        target = directory.resolve("target.bin");
        oldContent = Content.bytes(1, 200_000);
        Files.write(target, oldContent);
        baselineFds = OpenFiles.targets();
    }

    @Test
    void successReplacesTheTargetWhole() throws Exception {
        byte[] newContent = Content.bytes(2, 500_001);
        long written = Stages.value(ReactiveFile.of(target).write(Content.publisher(newContent, 40_000, 3), ATOMIC));

        assertEquals(newContent.length, written);
        assertEquals(Content.sha256(newContent), Content.sha256(target));
        assertEquals(List.of(), Stages.temporaries(directory));
        OpenFiles.awaitClosed(directory, baselineFds);
    }

    @Test
    void aNewFileGetsPlainCreatePermissionsAndAReplacedFileKeepsItsOwn_A2() throws Exception {
        Path plain = directory.resolve("plain");
        Stages.value(ReactiveFile.of(plain).write(Flux.just(ByteBuffer.wrap(new byte[] {1}))));
        Path fresh = directory.resolve("fresh");
        Stages.value(ReactiveFile.of(fresh).write(Flux.just(ByteBuffer.wrap(new byte[] {1})), ATOMIC));
        assertEquals(
                Files.getPosixFilePermissions(plain),
                Files.getPosixFilePermissions(fresh),
                "an atomic write of a new file gets what a plain write gets (0666 less the umask)");
        Path created = directory.resolve("created");
        Stages.value(ReactiveFile.of(created)
                .write(Flux.just(ByteBuffer.wrap(new byte[] {1})), ATOMIC.withMode(io.sluice.WriteMode.CREATE_NEW)));
        assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(created));
        assertEquals(List.of(), Stages.temporaries(directory), "no probe or temporary left behind");

        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-r--r--"));
        Stages.value(ReactiveFile.of(target).write(Flux.just(ByteBuffer.wrap(new byte[] {2})), ATOMIC));
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(target)));
    }

    @Test
    void upstreamErrorAtRandomPointsLeavesTheOldContentAndNoTemporary_A3() throws Exception {
        Random random = new Random(42);
        for (int run = 0; run < 25; run++) {
            byte[] newContent = Content.bytes(run, 300_000);
            List<ByteBuffer> items = Content.items(newContent, 30_000, random);
            int failAfter = random.nextInt(items.size() + 1);
            IOException injected = new IOException("injected upstream failure after item " + failAfter);
            Flux<ByteBuffer> upstream =
                    Flux.fromIterable(items.subList(0, failAfter)).concatWith(Flux.error(injected));

            Throwable failure = Stages.failure(ReactiveFile.of(target).write(upstream, ATOMIC));

            assertSame(injected, failure, "the stage fails with upstream's own error");
            assertEquals(Content.sha256(oldContent), Content.sha256(target), "run " + run);
            Stages.awaitNoTemporaries(directory);
        }
        OpenFiles.awaitClosed(directory, baselineFds);
    }

    @Test
    void cancelAtRandomPointsLeavesTheOldContentAndNoTemporary_A3() throws Exception {
        Random random = new Random(7);
        for (int run = 0; run < 25; run++) {
            int cancelAfter = random.nextInt(40);
            CountDownLatch reached = new CountDownLatch(1);
            AtomicInteger emitted = new AtomicInteger();
            AtomicInteger cancelledUpstream = new AtomicInteger();
            Flux<ByteBuffer> endless = Flux.<ByteBuffer>generate(sink -> sink.next(ByteBuffer.wrap(new byte[8192])))
                    .doOnNext(item -> {
                        if (emitted.incrementAndGet() >= cancelAfter) {
                            reached.countDown();
                        }
                    })
                    .doOnCancel(cancelledUpstream::incrementAndGet);
            CompletableFuture<Long> stage =
                    ReactiveFile.of(target).write(endless, ATOMIC).toCompletableFuture();
            if (cancelAfter > 0) {
                assertTrue(reached.await(30, TimeUnit.SECONDS), "upstream never reached item " + cancelAfter);
            }

            assertTrue(stage.cancel(true), "an endless write cannot have completed");

            Stages.awaitNoTemporaries(directory);
            assertEquals(Content.sha256(oldContent), Content.sha256(target), "run " + run);
            awaitEquals(1, cancelledUpstream, "upstream cancelled once");
        }
        OpenFiles.awaitClosed(directory, baselineFds);
    }

    @Test
    void aTemporaryRemovedByCleanupMidWriteFailsTheCommitAndLeavesTheTarget() throws Exception {
        byte[] newContent = Content.bytes(3, 100_000);
        Flux<ByteBuffer> upstream = Content.publisher(newContent, 10_000, 4).concatWith(Flux.defer(() -> {
            try {
                ReactiveFile.removeStaleTemporaries(directory);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return Flux.empty();
        }));

        Throwable failure = Stages.failure(ReactiveFile.of(target).write(upstream, ATOMIC));

        assertInstanceOf(NoSuchFileException.class, failure);
        assertEquals(Content.sha256(oldContent), Content.sha256(target));
        OpenFiles.awaitClosed(directory, baselineFds);
    }

    @Test
    void aSymlinkPlantedAtTheTemporaryNameIsNeverFollowed_A1() throws Exception {
        Path victim = directory.resolve("victim");
        Files.writeString(victim, "precious");
        Path absent = directory.resolve("created-through-link");
        String planted = AtomicTemporaries.newName();
        String dangling = AtomicTemporaries.newName();
        Files.createSymbolicLink(directory.resolve(planted), victim);
        Files.createSymbolicLink(directory.resolve(dangling), absent);
        Deque<String> names = new ArrayDeque<>(List.of(planted, dangling));
        AtomicFileSink sink = new AtomicFileSink(
                target, WriteMode.TRUNCATE, () -> names.isEmpty() ? AtomicTemporaries.newName() : names.poll());
        byte[] newContent = Content.bytes(5, 70_000);

        Stages.value(Writes.start(Content.publisher(newContent, 9000, 5), sink, ATOMIC, IoExecutors.files(), "t"));

        assertEquals("precious", Files.readString(victim), "the link's target was written through");
        assertFalse(Files.exists(absent, LinkOption.NOFOLLOW_LINKS), "a dangling link's target was created");
        assertTrue(Files.isSymbolicLink(directory.resolve(planted)), "the planted link was replaced");
        assertEquals(Content.sha256(newContent), Content.sha256(target));
        assertFalse(sink.temporaryFile().getFileName().toString().equals(planted));
    }

    @Test
    void whenEveryTemporaryNameIsTakenTheWriteFailsAndTouchesNothing_A1() throws Exception {
        Path victim = directory.resolve("victim");
        Files.writeString(victim, "precious");
        String planted = AtomicTemporaries.newName();
        Files.createSymbolicLink(directory.resolve(planted), victim);
        AtomicFileSink sink = new AtomicFileSink(target, WriteMode.TRUNCATE, () -> planted);

        Throwable failure = Stages.failure(
                Writes.start(Flux.just(ByteBuffer.wrap(new byte[5])), sink, ATOMIC, IoExecutors.files(), "t"));

        assertInstanceOf(FileSystemException.class, failure);
        assertInstanceOf(FileAlreadyExistsException.class, failure.getCause());
        assertEquals("precious", Files.readString(victim));
        assertEquals(Content.sha256(oldContent), Content.sha256(target));
    }

    @Test
    void aSymlinkAtTheTargetIsReplacedNotFollowed() throws Exception {
        Path victim = directory.resolve("victim");
        Files.writeString(victim, "precious");
        Path link = directory.resolve("link");
        Files.createSymbolicLink(link, victim);

        Stages.value(ReactiveFile.of(link)
                .write(Flux.just(ByteBuffer.wrap("new".getBytes(StandardCharsets.UTF_8))), ATOMIC));

        assertFalse(Files.isSymbolicLink(link));
        assertEquals("new", Files.readString(link));
        assertEquals("precious", Files.readString(victim));
    }

    @Test
    void aSymlinkAtTheTargetIsReplacedByAFileWithTheLinkTargetsPermissions_A2() throws Exception {
        assumeTrue(
                directory.getFileSystem().supportedFileAttributeViews().contains("posix"),
                "file permissions are POSIX permissions here");
        Path victim = directory.resolve("victim");
        Files.writeString(victim, "precious");
        Files.setPosixFilePermissions(victim, PosixFilePermissions.fromString("rw-r-----"));
        Path link = directory.resolve("link");
        Files.createSymbolicLink(link, victim);
        Path dangling = directory.resolve("dangling");
        Files.createSymbolicLink(dangling, directory.resolve("absent"));
        Path plain = directory.resolve("plain");
        Stages.value(ReactiveFile.of(plain).write(Flux.just(ByteBuffer.wrap(new byte[] {1}))));

        Stages.value(ReactiveFile.of(link).write(Flux.just(ByteBuffer.wrap(new byte[] {2})), ATOMIC));
        Stages.value(ReactiveFile.of(dangling).write(Flux.just(ByteBuffer.wrap(new byte[] {3})), ATOMIC));

        assertEquals(
                "rw-r-----",
                PosixFilePermissions.toString(Files.getPosixFilePermissions(link, LinkOption.NOFOLLOW_LINKS)),
                "the file replacing a link has the permissions of the file it pointed to");
        assertFalse(Files.isSymbolicLink(link), "the link itself is replaced, as a rename replaces it");
        assertEquals("precious", Files.readString(victim));
        assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(victim)));
        assertEquals(
                Files.getPosixFilePermissions(plain),
                Files.getPosixFilePermissions(dangling, LinkOption.NOFOLLOW_LINKS),
                "a dangling link is replaced like a new file");
        assertFalse(Files.exists(directory.resolve("absent"), LinkOption.NOFOLLOW_LINKS));
        assertEquals(List.of(), Stages.temporaries(directory));
    }

    @Test
    void createNewCreatesButNeverReplaces() throws Exception {
        WriteOptions createNew = WriteOptions.createNew().withAtomicReplace();
        Path fresh = directory.resolve("fresh");
        Stages.value(ReactiveFile.of(fresh).write(Flux.just(ByteBuffer.wrap(new byte[] {9})), createNew));
        assertEquals(1, Files.size(fresh));

        Throwable failure =
                Stages.failure(ReactiveFile.of(target).write(Flux.just(ByteBuffer.wrap(new byte[1])), createNew));

        assertInstanceOf(FileAlreadyExistsException.class, failure);
        assertEquals(Content.sha256(oldContent), Content.sha256(target));
        assertEquals(List.of(), Stages.temporaries(directory));
    }

    @Test
    void appendIsRefusedAtTheCall() {
        IllegalArgumentException refused = assertThrows(
                IllegalArgumentException.class,
                () -> ReactiveFile.of(target)
                        .write(Flux.<ByteBuffer>empty(), WriteOptions.append().withAtomicReplace()));
        assertTrue(refused.getMessage().contains("append"), refused.getMessage());
    }

    @Test
    void atomicCopyReplacesTheTargetWhole() throws Exception {
        Path source = directory.resolve("source");
        byte[] newContent = Content.bytes(8, 1_000_003);
        Files.write(source, newContent);

        assertEquals(newContent.length, Stages.value(ReactiveFile.of(source).copyTo(target, ATOMIC)));

        assertEquals(Content.sha256(newContent), Content.sha256(target));
        assertEquals(List.of(), Stages.temporaries(directory));
        OpenFiles.awaitClosed(directory, baselineFds);
    }

    @Test
    void cleanupRemovesExactlyTheTemporaryNames() throws Exception {
        Path victim = directory.resolve("victim");
        Files.writeString(victim, "precious");
        Files.createFile(directory.resolve(AtomicTemporaries.newName()));
        Files.createSymbolicLink(directory.resolve(AtomicTemporaries.newName()), victim);
        String upperCase = AtomicTemporaries.newName().toUpperCase(java.util.Locale.ROOT);
        List<String> kept = List.of(
                ".sluice-123.tmp",
                upperCase,
                AtomicTemporaries.newName() + ".bak",
                "sluice-" + "0".repeat(32) + ".tmp",
                "target.bin",
                "victim");
        for (String name : kept.subList(0, 4)) {
            Files.createFile(directory.resolve(name));
        }
        Path nested = Files.createDirectory(directory.resolve(AtomicTemporaries.newName()));

        assertEquals(0, ReactiveFile.removeStaleTemporaries(directory, Duration.ofHours(1)), "too young");
        assertEquals(2, ReactiveFile.removeStaleTemporaries(directory));

        for (String name : kept) {
            assertTrue(Files.exists(directory.resolve(name)), name + " was removed");
        }
        assertTrue(Files.isDirectory(nested), "a directory is never removed");
        assertEquals("precious", Files.readString(victim));
        assertThrows(NoSuchFileException.class, () -> ReactiveFile.removeStaleTemporaries(directory.resolve("none")));
    }

    static void awaitEquals(int expected, AtomicInteger actual, String what) {
        long deadline = System.nanoTime() + OpenFiles.DEADLINE.toNanos();
        while (actual.get() != expected && System.nanoTime() < deadline) {
            OpenFiles.pause();
        }
        assertEquals(expected, actual.get(), what);
    }
}
