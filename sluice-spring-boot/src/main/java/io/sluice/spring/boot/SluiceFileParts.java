package io.sluice.spring.boot;

import io.sluice.spring.FileParts;
import io.sluice.spring.FileParts.StoredPart;
import org.reactivestreams.Publisher;
import org.springframework.http.codec.multipart.FilePart;
import org.springframework.http.codec.multipart.FilePartEvent;
import org.springframework.http.codec.multipart.PartEvent;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Function;

/**
 * {@link FileParts} with the application's upload options ({@link SluiceTransfers#uploadOptions()},
 * atomic replace by default), each transfer observed as {@link SluiceTransfers}' are. Created by the
 * auto-configuration when {@code spring-web} is present.
 *
 * <pre>{@code
 * @PostMapping("/files/{name}")
 * Mono<Void> upload(@PathVariable String name, @RequestPart("file") FilePart part) {
 *     return parts.transferTo(part, storage.resolve(name));
 * }
 * }</pre>
 *
 * <p><b>Threading, Backpressure, Resources, Errors:</b> as {@link FileParts}.
 */
public final class SluiceFileParts {

    private final SluiceTransfers transfers;

    /**
     * File parts stored with {@code transfers}' upload options and observers.
     *
     * @param transfers the options and observers to use
     * @throws NullPointerException if {@code transfers} is {@code null}
     */
    public SluiceFileParts(SluiceTransfers transfers) {
        this.transfers = Objects.requireNonNull(transfers, "transfers");
    }

    /**
     * Writes {@code part}'s content to {@code dest} with the upload options: a drop-in for
     * {@link FilePart#transferTo(Path)}, observed as one write.
     *
     * @param part the uploaded file part
     * @param dest the file to write
     * @return a cold {@code Mono} completing once the file is written and closed
     * @throws NullPointerException if an argument is {@code null}
     */
    public Mono<Void> transferTo(FilePart part, Path dest) {
        Objects.requireNonNull(part, "part");
        return transfers.upload(part.content(), dest).then();
    }

    /**
     * Writes each file part of a streamed form to the file {@code targetOf} names for it, with the
     * upload options, as {@link FileParts#store(Publisher, Function, io.sluice.WriteOptions)} does;
     * the whole store is observed as one write whose bytes are the parts' sum (its
     * {@link Transfer#file()} is {@code null}).
     *
     * @param parts the form's events, as {@code PartEventHttpMessageReader} emits them
     * @param targetOf the file for a part, given its first event; {@code null} skips the part
     * @return a cold {@code Flux} of the parts stored, each once its file is written and closed
     * @throws NullPointerException if an argument is {@code null}
     */
    public Flux<StoredPart> store(Publisher<PartEvent> parts, Function<? super FilePartEvent, Path> targetOf) {
        Objects.requireNonNull(parts, "parts");
        Objects.requireNonNull(targetOf, "targetOf");
        if (!transfers.observed()) {
            return FileParts.store(parts, targetOf, transfers.uploadOptions());
        }
        // The parts' writes share one listener, whose byte counts restart with each part: the
        // store's bytes are summed from the parts stored instead.
        return transfers.observed(
                Transfer.Kind.WRITE,
                null,
                transfer -> FileParts.store(
                                parts, targetOf, SluiceTransfers.tracked(transfers.uploadOptions(), transfer, false))
                        .doOnNext(stored -> transfer.addBytes(stored.bytes())));
    }
}
