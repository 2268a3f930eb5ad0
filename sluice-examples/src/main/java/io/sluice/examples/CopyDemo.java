package io.sluice.examples;

import io.sluice.ReactiveFile;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;

/**
 * Copies a generated file through the library twice, read publisher into file writer and
 * zero-copy {@code copyTo}, verifies both copies, and prints bytes and MiB/s.
 *
 * <p>Run: {@code java io.sluice.examples.CopyDemo [sizeMiB]} (default 256).
 */
public final class CopyDemo {

    private CopyDemo() {}

    public static void main(String[] args) throws IOException, InterruptedException, ExecutionException {
        long sizeMiB = args.length > 0 ? Long.parseLong(args[0]) : 256;
        Path dir = Files.createTempDirectory("sluice-demo");
        try {
            Path source = dir.resolve("source");
            writeRandom(source, sizeMiB * 1024 * 1024);
            Path streamed = dir.resolve("streamed");
            long start = System.nanoTime();
            long bytes = ReactiveFile.of(streamed)
                    .write(ReactiveFile.of(source).read())
                    .toCompletableFuture()
                    .get();
            report("read -> write", bytes, System.nanoTime() - start);
            Path copied = dir.resolve("copied");
            start = System.nanoTime();
            bytes = ReactiveFile.of(source).copyTo(copied).toCompletableFuture().get();
            report("copyTo (transferTo)", bytes, System.nanoTime() - start);
            if (Files.mismatch(source, streamed) != -1 || Files.mismatch(source, copied) != -1) {
                throw new IllegalStateException("a copy differs from its source");
            }
            System.out.println("both copies verified byte for byte");
        } finally {
            try (var files = Files.list(dir)) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    Files.delete(file);
                }
            }
            Files.delete(dir);
        }
    }

    private static void writeRandom(Path file, long size) throws IOException {
        byte[] block = new byte[1024 * 1024];
        SplittableRandom random = new SplittableRandom(42);
        try (var channel = Files.newByteChannel(
                file, java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE)) {
            for (long written = 0; written < size; written += block.length) {
                for (int i = 0; i < block.length; i += 8) {
                    long value = random.nextLong();
                    for (int b = 0; b < 8; b++) {
                        block[i + b] = (byte) (value >>> (8 * b));
                    }
                }
                channel.write(ByteBuffer.wrap(block, 0, (int) Math.min(block.length, size - written)));
            }
        }
    }

    private static void report(String what, long bytes, long nanos) {
        double mib = bytes / (1024.0 * 1024.0);
        System.out.printf("%-22s %,d bytes in %.3f s: %.0f MiB/s%n", what, bytes, nanos / 1e9, mib / (nanos / 1e9));
    }
}
