package io.sluice.examples;

import io.sluice.ByteStreams;
import io.sluice.ReactiveFile;
import io.sluice.ReadOptions;
import io.sluice.WriteOptions;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.concurrent.CompletionStage;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Example 5: legacy {@link InputStream}/{@link OutputStream} APIs on either side of a file. The
 * blocking stream calls run on {@link io.sluice.IoExecutors#blocking()}, never on the file pool,
 * and the library closes the stream when the pipe ends.
 *
 * <p>Run: {@code java io.sluice.examples.StreamPipes gzip <file> <file.gz>} or
 * {@code ... gunzip <file.gz> <file>}.
 */
public final class StreamPipes {

    private StreamPipes() {}

    /**
     * Copies {@code in} into {@code file} (created or truncated), then closes {@code in}.
     *
     * @param in the stream to read to its end
     * @param file the file to write
     * @return completes with the number of bytes written
     */
    public static CompletionStage<Long> inputStreamToFile(InputStream in, Path file) {
        return ReactiveFile.of(file).write(ByteStreams.publisher(in, ReadOptions.defaults()));
    }

    /**
     * Copies {@code file} into {@code out}, then flushes and closes {@code out}.
     *
     * @param file the file to read
     * @param out the stream to write
     * @return completes with the number of bytes written
     */
    public static CompletionStage<Long> fileToOutputStream(Path file, OutputStream out) {
        return ByteStreams.write(out, ReactiveFile.of(file).read(), WriteOptions.defaults());
    }

    /**
     * Compresses or decompresses a file through {@code java.util.zip} streams.
     *
     * @param args {@code gzip|gunzip <source> <target>}
     * @throws Exception if a file cannot be opened
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 3 || !(args[0].equals("gzip") || args[0].equals("gunzip"))) {
            System.err.println("usage: StreamPipes gzip|gunzip <source> <target>");
            System.exit(2);
        }
        Path source = Path.of(args[1]);
        Path target = Path.of(args[2]);
        long bytes = args[0].equals("gzip")
                ? fileToOutputStream(source, new GZIPOutputStream(java.nio.file.Files.newOutputStream(target)))
                        .toCompletableFuture()
                        .join()
                : inputStreamToFile(new GZIPInputStream(java.nio.file.Files.newInputStream(source)), target)
                        .toCompletableFuture()
                        .join();
        System.out.println(args[0] + ": " + bytes + " uncompressed bytes");
    }
}
