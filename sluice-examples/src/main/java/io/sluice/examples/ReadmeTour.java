package io.sluice.examples;

import io.sluice.BytePublisher;
import io.sluice.ReactiveFile;
import io.sluice.WriteOptions;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.CompletionStage;

// spotless:off (the docs quote this file line for line, a test checks it: the layout is theirs)

/**
 * The README's ten-line example, compiled: {@code ReadmeTourTest} runs it and checks that the
 * README shows these lines (between the {@code README} markers) word for word.
 */
public final class ReadmeTour {

    /**
     * What the tour starts.
     *
     * @param size the Reactor sum of the chunk sizes of {@code in.bin}
     * @param written the sync write of {@code in.bin} to {@code out.bin}, cancelled at once
     * @param copied the zero-copy copy of {@code in.bin} to {@code copy.bin}
     * @param safe the atomic write of {@code upload} over {@code config.json}
     */
    public record Stages(Mono<Integer> size, CompletionStage<Long> written, CompletionStage<Long> copied,
                         CompletionStage<Long> safe) {
    }

    private ReadmeTour() {
    }

    /**
     * Runs the README's example in {@code dir}, which holds {@code in.bin}.
     *
     * @param dir the directory of the example's files
     * @param upload any publisher of bytes, for example an HTTP request body
     * @return the stages the example starts
     */
    public static Stages run(Path dir, Publisher<ByteBuffer> upload) {
        // README begin
        ReactiveFile source = ReactiveFile.of(dir.resolve("in.bin"));
        BytePublisher chunks = source.read();                                          // 64 KiB chunks, on demand
        Mono<Integer> size = Flux.from(chunks).map(ByteBuffer::remaining).reduce(0, Integer::sum); // Reactor, no adapter
        CompletionStage<Long> written = ReactiveFile.of(dir.resolve("out.bin"))
                .write(chunks, WriteOptions.defaults().withSync());                    // adaptive demand, ≤ 1 MiB queued
        CompletionStage<Long> copied = source.copyTo(dir.resolve("copy.bin"));         // zero-copy, cancellable
        CompletionStage<Long> safe = ReactiveFile.of(dir.resolve("config.json"))
                .write(upload, WriteOptions.defaults().withAtomicReplace());           // old or new, never half
        written.toCompletableFuture().cancel(true);                                    // cancels upstream, closes the file
        // README end
        return new Stages(size, written, copied, safe);
    }
}
// spotless:on
