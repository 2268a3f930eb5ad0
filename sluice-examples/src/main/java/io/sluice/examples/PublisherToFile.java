package io.sluice.examples;

import io.sluice.ReactiveFile;
import io.sluice.WriteOptions;
import io.smallrye.mutiny.Multi;
import reactor.core.publisher.Flux;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletionStage;

/**
 * Example 2: a Reactor {@code Flux<ByteBuffer>} (a Reactive Streams publisher) and a Mutiny
 * {@code Multi<ByteBuffer>} (a {@code java.util.concurrent.Flow} publisher since Mutiny 2) written
 * to a file. Neither needs an adapter: {@link ReactiveFile#write} has an overload for each kind.
 *
 * <p>Backpressure: the writer requests from the {@code Flux}/{@code Multi} with adaptive demand and
 * holds at most {@link WriteOptions#maxQueuedBytes()} of unwritten data, so a fast generator cannot
 * fill the heap.
 *
 * <p>Run: {@code java io.sluice.examples.PublisherToFile <target>}.
 */
public final class PublisherToFile {

    private PublisherToFile() {}

    /**
     * Writes a {@code Flux}, creating or truncating {@code target}.
     *
     * @param chunks the bytes to write
     * @param target the file to write
     * @return completes with the number of bytes written, after the file is closed
     */
    public static CompletionStage<Long> writeFlux(Flux<ByteBuffer> chunks, Path target) {
        return ReactiveFile.of(target).write(chunks);
    }

    /**
     * Writes a Mutiny {@code Multi}, creating or truncating {@code target}.
     *
     * @param chunks the bytes to write
     * @param target the file to write
     * @return completes with the number of bytes written, after the file is closed
     */
    public static CompletionStage<Long> writeMulti(Multi<ByteBuffer> chunks, Path target) {
        return ReactiveFile.of(target).write(chunks);
    }

    /**
     * Writes 1000 numbered lines with Reactor, then appends 1000 more with Mutiny.
     *
     * @param args the target file's path
     */
    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: PublisherToFile <target>");
            System.exit(2);
        }
        Path target = Path.of(args[0]);
        long first = writeFlux(Flux.range(0, 1000).map(PublisherToFile::line), target)
                .toCompletableFuture()
                .join();
        long second = ReactiveFile.of(target)
                .write(Multi.createFrom().range(1000, 2000).map(PublisherToFile::line), WriteOptions.append())
                .toCompletableFuture()
                .join();
        System.out.println("wrote " + first + " + " + second + " bytes to " + target);
    }

    static ByteBuffer line(int number) {
        return ByteBuffer.wrap(("line " + number + "\n").getBytes(StandardCharsets.US_ASCII));
    }
}
