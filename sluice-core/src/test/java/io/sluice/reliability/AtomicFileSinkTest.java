package io.sluice.reliability;

import io.sluice.WriteMode;
import io.sluice.internal.write.AtomicFileSink;
import io.sluice.internal.write.WriteSink;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The sink's own protocol, driven directly and deterministically: the temporary file's
 * permissions (A1), which call sequences commit (A2) and which discard (A3), both with the
 * explicit {@code commit()} hook the writer calls; a close without it always discards.
 */
class AtomicFileSinkTest {

    @TempDir
    Path directory;

    private Path target;
    private final byte[] oldContent = Content.bytes(1, 5000);
    private final byte[] newContent = Content.bytes(2, 7000);

    @BeforeEach
    void oldTarget() throws IOException {
        target = Files.write(directory.resolve("target"), oldContent);
    }

    @Test
    void commitThenCloseReplacesTheTarget_A2() throws Exception {
        AtomicFileSink sink = openAndWrite();
        sink.commit();
        sink.close();
        sink.close(); // idempotent
        assertTarget(newContent);
    }

    @Test
    void forceThenCloseWithoutCommitDiscards_A3() throws Exception {
        AtomicFileSink sink = openAndWrite();
        sink.force();
        sink.close(); // only commit() replaces the target
        assertTarget(oldContent);
        assertThrows(IOException.class, sink::commit, "a commit after the discarding close");
        assertTarget(oldContent);
    }

    @Test
    void abortClosesAndDeletesTheTemporaryBeforeItReturns_A3() throws Exception {
        AtomicFileSink sink = openAndWrite();
        sink.abort();
        assertEquals(List.of(), Stages.temporaries(directory), "deleted by abort(), not by a later close()");
        assertFalse(
                sink.writeFully(new ByteBuffer[] {ByteBuffer.wrap(newContent)}, 0, 1),
                "a write after the abort is refused");
        assertThrows(IOException.class, sink::force);
        sink.close();
        assertTarget(oldContent);
    }

    @Test
    void theTemporaryFileIsOwnerOnlyUntilTheCommit_A1() throws Exception {
        assumeTrue(
                directory.getFileSystem().supportedFileAttributeViews().contains("posix"),
                "owner-only permissions apply on POSIX file systems only");
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-r--r--"));
        AtomicFileSink sink = openAndWrite();

        assertEquals(
                "rw-------",
                PosixFilePermissions.toString(
                        Files.getPosixFilePermissions(sink.temporaryFile(), LinkOption.NOFOLLOW_LINKS)),
                "A1: nobody but the owner may read the data before it is committed");
        sink.force();
        assertEquals(
                "rw-------",
                PosixFilePermissions.toString(
                        Files.getPosixFilePermissions(sink.temporaryFile(), LinkOption.NOFOLLOW_LINKS)),
                "still owner-only after force, until the commit gives it the target's permissions");
        sink.commit();
        sink.close();

        assertTarget(newContent);
        assertEquals(
                "rw-r--r--",
                PosixFilePermissions.toString(Files.getPosixFilePermissions(target)),
                "A2: the committed file has the replaced file's permissions");
    }

    @Test
    void closeWithoutForceOrCommitDiscards_A3() throws Exception {
        AtomicFileSink sink = openAndWrite();
        assertTrue(Files.exists(sink.temporaryFile()));
        sink.close();
        assertTarget(oldContent);
    }

    @Test
    void abortAfterForceDiscardsAndALaterCommitFails_A3() throws Exception {
        AtomicFileSink sink = openAndWrite();
        sink.force();
        sink.abort(); // a cancel racing the success path
        assertThrows(IOException.class, sink::commit);
        sink.close();
        assertTarget(oldContent);
    }

    @Test
    void abortAfterCommitChangesNothing() throws Exception {
        AtomicFileSink sink = openAndWrite();
        sink.commit();
        sink.abort();
        sink.close();
        assertTarget(newContent);
    }

    @Test
    void abortBeforeOpenLeavesNoTemporary_A3() throws Exception {
        AtomicFileSink sink = new AtomicFileSink(target, WriteMode.TRUNCATE);
        sink.abort();
        assertThrows(
                IOException.class,
                () -> sink.open(WriteSink.Stop.NEVER),
                "an aborted sink never creates its temporary");
        sink.close();
        assertTarget(oldContent);
    }

    @Test
    void aCommitThatCannotRenameDeletesTheTemporaryAndThrows_A3() throws Exception {
        AtomicFileSink sink = openAndWrite();
        Files.delete(target);
        Files.createDirectory(target);
        Files.write(target.resolve("inside"), new byte[1]); // rename over a non-empty directory fails

        assertThrows(IOException.class, sink::commit);
        sink.close();
        assertTrue(Files.isDirectory(target));
        assertEquals(List.of(), Stages.temporaries(directory));
    }

    private AtomicFileSink openAndWrite() throws IOException {
        AtomicFileSink sink = new AtomicFileSink(target, WriteMode.TRUNCATE);
        sink.open(WriteSink.Stop.NEVER);
        assertTrue(sink.writeFully(
                new ByteBuffer[] {ByteBuffer.wrap(newContent, 0, 3000), ByteBuffer.wrap(newContent, 3000, 4000)},
                0,
                2));
        assertTrue(sink.flush(), "the staged items are written");
        assertEquals(Content.sha256(oldContent), Content.sha256(target), "nothing is visible before the commit");
        return sink;
    }

    private void assertTarget(byte[] expected) throws IOException {
        assertEquals(Content.sha256(expected), Content.sha256(target));
        assertEquals(List.of(), Stages.temporaries(directory));
    }
}
