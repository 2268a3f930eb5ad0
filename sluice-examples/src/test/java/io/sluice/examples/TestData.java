package io.sluice.examples;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.SplittableRandom;

/** Deterministic test bytes and a digest computed without sluice, to check the examples against. */
final class TestData {

    private TestData() {}

    /** {@code size} pseudo-random bytes from {@code seed}: the same seed gives the same bytes. */
    static byte[] bytes(long seed, int size) {
        byte[] bytes = new byte[size];
        new SplittableRandom(seed).nextBytes(bytes);
        return bytes;
    }

    /** Writes {@code size} pseudo-random bytes to {@code file} with a plain FileChannel loop. */
    static Path file(Path file, long seed, long size) throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        byte[] block = new byte[1024 * 1024];
        try (FileChannel channel = FileChannel.open(
                file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            long left = size;
            while (left > 0) {
                random.nextBytes(block);
                ByteBuffer buffer = ByteBuffer.wrap(block, 0, (int) Math.min(block.length, left));
                left -= buffer.remaining();
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
            }
        }
        return file;
    }

    /** SHA-256 of a file, read with a plain InputStream. */
    static byte[] sha256(Path file) throws IOException {
        MessageDigest digest = FileDigests.newSha256();
        byte[] block = new byte[64 * 1024];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n = in.read(block); n >= 0; n = in.read(block)) {
                digest.update(block, 0, n);
            }
        }
        return digest.digest();
    }

    static byte[] sha256(byte[] bytes) {
        return FileDigests.newSha256().digest(bytes);
    }
}
