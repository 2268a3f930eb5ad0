package io.sluice.examples.spring;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/** Files the tests send, and directories they store into, under {@code target/test-files}. */
final class TestFiles {

    private static final Path ROOT = Path.of("target", "test-files").toAbsolutePath();

    private TestFiles() {}

    /** A new empty directory whose name starts with {@code prefix}. */
    static Path directory(String prefix) {
        try {
            return Files.createTempDirectory(Files.createDirectories(ROOT), prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A new file of {@code size} pseudo-random bytes from {@code seed}. */
    static Path random(int size, long seed) throws IOException {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        Path file = Files.createTempFile(Files.createDirectories(ROOT), "sent", ".bin");
        return Files.write(file, bytes);
    }
}
