package io.sluice.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class FileDigestsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** Large enough for hundreds of chunks, with a short last chunk. */
    private static final long LARGE_FILE_BYTES = 48L * 1024 * 1024 + 12_345;

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

        assertArrayEquals(TestData.sha256(new byte[0]), FileDigests.sha256WithReactor(file).block(TIMEOUT));
        assertArrayEquals(TestData.sha256(new byte[0]), FileDigests.sha256WithRxJava(file).blockingGet());
    }

    @Test
    void aMissingFileFailsWithNoSuchFileException() {
        Path missing = dir.resolve("missing");

        var reactor = assertThrows(RuntimeException.class, () -> FileDigests.sha256WithReactor(missing).block(TIMEOUT));
        assertCause(NoSuchFileException.class, reactor);
        var rxjava = assertThrows(RuntimeException.class, () -> FileDigests.sha256WithRxJava(missing).blockingGet());
        assertCause(NoSuchFileException.class, rxjava);
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
