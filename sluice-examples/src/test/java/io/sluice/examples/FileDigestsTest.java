package io.sluice.examples;

import io.sluice.ChunkPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Collections;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FileDigestsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** Large enough for hundreds of chunks, with a short last chunk. */
    private static final long LARGE_FILE_BYTES = 48L * 1024 * 1024 + 12_345;

    private static final int CHUNK_BYTES = 64 * 1024;
    /** 128 chunks and a short one: many more than the pool of 8 holds. */
    private static final long LENT_FILE_BYTES = 128L * CHUNK_BYTES + 7_777;

    @TempDir
    Path dir;

    @Test
    void reactorAndRxJavaDigestsMatchTheJdkDigestOfALargeFile() throws Exception {
        Path file = TestData.file(dir.resolve("large.bin"), 1, LARGE_FILE_BYTES);
        byte[] expected = TestData.sha256(file);

        assertArrayEquals(expected, FileDigests.sha256WithReactor(file).block(TIMEOUT));
        assertArrayEquals(expected, FileDigests.sha256WithRxJava(file).blockingGet());
    }

    @Test
    void theMonoIsColdEachSubscriptionDigestsTheFileAgain() throws Exception {
        Path file = TestData.file(dir.resolve("small.bin"), 2, 100_000);
        var digest = FileDigests.sha256WithReactor(file);

        byte[] first = digest.block(TIMEOUT);
        byte[] second = digest.block(TIMEOUT);

        assertArrayEquals(TestData.sha256(file), first);
        assertArrayEquals(first, second);
    }

    @Test
    void anEmptyFileHasTheDigestOfNoBytes() throws Exception {
        Path file = Files.createFile(dir.resolve("empty"));

        assertArrayEquals(
                TestData.sha256(new byte[0]),
                FileDigests.sha256WithReactor(file).block(TIMEOUT));
        assertArrayEquals(
                TestData.sha256(new byte[0]), FileDigests.sha256WithRxJava(file).blockingGet());
    }

    @Test
    void aMissingFileFailsWithNoSuchFileException() {
        Path missing = dir.resolve("missing");

        var reactor = assertThrows(
                RuntimeException.class,
                () -> FileDigests.sha256WithReactor(missing).block(TIMEOUT));
        assertCause(NoSuchFileException.class, reactor);
        var rxjava = assertThrows(
                RuntimeException.class,
                () -> FileDigests.sha256WithRxJava(missing).blockingGet());
        assertCause(NoSuchFileException.class, rxjava);
    }

    @Test
    void theLentChunkDigestMatchesTheJdkDigestAndOneDirectBufferServesTheWholeFile() throws Exception {
        Path file = TestData.file(dir.resolve("lent.bin"), 3, LENT_FILE_BYTES);
        ChunkPool pool = ChunkPool.create(CHUNK_BYTES, 8);

        byte[] digest = FileDigests.sha256WithLentChunks(file, pool).block(TIMEOUT);

        assertArrayEquals(TestData.sha256(file), digest);
        assertTrue(pool.lentChunks() >= 129, "every chunk was lent, " + pool.lentChunks() + " lent");
        assertEquals(1, pool.allocatedChunks(), "each chunk went back before the next read: " + pool);
        assertEveryChunkBack(pool);
    }

    @Test
    void theLentChunkMonoIsColdAndAnEmptyFileHasTheDigestOfNoBytes() throws Exception {
        Path file = Files.createFile(dir.resolve("empty-lent"));
        ChunkPool pool = ChunkPool.create(CHUNK_BYTES, 8);
        var digest = FileDigests.sha256WithLentChunks(file, pool);

        assertArrayEquals(TestData.sha256(new byte[0]), digest.block(TIMEOUT));
        Files.write(file, TestData.bytes(4, 100_000));
        assertArrayEquals(TestData.sha256(file), digest.block(TIMEOUT), "a second subscription reads again");
        assertEveryChunkBack(pool);
    }

    @Test
    void aDigestCancelledByTakeLeavesNoChunkOut() throws Exception {
        Path file = TestData.file(dir.resolve("cancelled.bin"), 5, LENT_FILE_BYTES);
        ChunkPool pool = ChunkPool.create(CHUNK_BYTES, 8);

        var sizes = FileDigests.digestLentChunks(file, pool, FileDigests.newSha256())
                .take(3)
                .collectList()
                .block(TIMEOUT);

        assertEquals(Collections.nCopies(3, CHUNK_BYTES), sizes);
        assertEveryChunkBack(pool);
    }

    @Test
    void aDigestThatThrowsStillGivesBackTheChunkItThrewOn() throws Exception {
        Path file = TestData.file(dir.resolve("failing.bin"), 6, LENT_FILE_BYTES);
        ChunkPool pool = ChunkPool.create(CHUNK_BYTES, 8);
        FailingDigest digest = new FailingDigest(2);

        var failure = assertThrows(
                IllegalStateException.class,
                () -> FileDigests.digestLentChunks(file, pool, digest).blockLast(TIMEOUT));

        assertEquals(FailingDigest.MESSAGE, failure.getMessage());
        assertEquals(3, digest.updates, "two chunks digested, the third threw");
        assertEveryChunkBack(pool);
    }

    /**
     * Every direct buffer the pool allocated is idle, eventually (a cancelled read gives back the
     * chunk it did not emit on its own thread), and none was collected as garbage instead: at least
     * one is idle, and no heap chunk had to be lent.
     */
    private static void assertEveryChunkBack(ChunkPool pool) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (pool.allocatedChunks() != pool.idleChunks() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(pool.allocatedChunks(), pool.idleChunks(), "every chunk is back: " + pool);
        assertTrue(pool.idleChunks() > 0, "the chunks came back, not collected as garbage: " + pool);
        assertEquals(0, pool.overflowed(), "the pool never ran out of direct buffers: " + pool);
    }

    /** A digest whose update throws after a number of chunks. */
    private static final class FailingDigest extends MessageDigest {
        static final String MESSAGE = "the digest failed";
        private final int chunksBeforeFailure;
        int updates; // test thread reads after the read ended

        FailingDigest(int chunksBeforeFailure) {
            super("failing");
            this.chunksBeforeFailure = chunksBeforeFailure;
        }

        @Override
        protected void engineUpdate(ByteBuffer input) {
            if (++updates > chunksBeforeFailure) {
                throw new IllegalStateException(MESSAGE);
            }
            input.position(input.limit());
        }

        @Override
        protected void engineUpdate(byte input) {
            throw new UnsupportedOperationException();
        }

        @Override
        protected void engineUpdate(byte[] input, int offset, int length) {
            throw new UnsupportedOperationException();
        }

        @Override
        protected byte[] engineDigest() {
            return new byte[0];
        }

        @Override
        protected void engineReset() {
            updates = 0;
        }
    }

    static void assertCause(Class<? extends Throwable> expected, Throwable thrown) {
        for (Throwable cause = thrown; cause != null; cause = cause.getCause()) {
            if (expected.isInstance(cause)) {
                return;
            }
        }
        throw new AssertionError("expected a " + expected.getSimpleName() + " in the causes of " + thrown, thrown);
    }
}
