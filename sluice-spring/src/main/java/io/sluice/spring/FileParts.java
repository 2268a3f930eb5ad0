package io.sluice.spring;

import io.sluice.WriteOptions;
import org.springframework.http.codec.multipart.FilePart;
import reactor.core.publisher.Mono;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A drop-in for {@link FilePart#transferTo(Path)} that writes the part through sluice: where a
 * handler says {@code part.transferTo(dest)}, it says {@code FileParts.transferTo(part, dest)}.
 *
 * <pre>{@code
 * @PostMapping("/upload")
 * Mono<Void> upload(@RequestPart("file") FilePart part) {
 *     return FileParts.transferTo(part, uploads.resolve(UUID.randomUUID().toString()));
 * }
 * }</pre>
 *
 * <p>Needs {@code spring-web} (WebFlux), which {@code sluice-spring} declares optional; only this
 * class uses it.
 *
 * <p><b>Threading, Backpressure, Resources:</b> as {@link DataBufferFiles#write(org.reactivestreams.Publisher,
 * Path, WriteOptions)} on {@link FilePart#content()}: each part buffer is released once its bytes
 * are written, or when the transfer ends without them.
 *
 * <p><b>Errors:</b> a {@code null} argument throws {@link NullPointerException} at the call; a
 * failure to write (a missing directory, a directory as target, no permission, a full disk) or a
 * failed upload reaches the subscriber as {@code onError}.
 */
public final class FileParts {

    private FileParts() {
    }

    /**
     * Writes {@code part}'s content to {@code dest}, created or truncated, as
     * {@link FilePart#transferTo(Path)} does, through sluice.
     *
     * @param part the uploaded file part
     * @param dest the file to write
     * @return a cold {@code Mono} completing once the file is written and closed
     * @throws NullPointerException if an argument is {@code null}
     */
    public static Mono<Void> transferTo(FilePart part, Path dest) {
        return transferTo(part, dest, WriteOptions.defaults());
    }

    /**
     * Writes {@code part}'s content to {@code dest} as {@code options} say (append, create new,
     * sync, atomic replace, demand); {@link DataBufferFiles#write(org.reactivestreams.Publisher, Path,
     * WriteOptions)} on the part's content, which also gives the byte count.
     *
     * @param part the uploaded file part
     * @param dest the file to write
     * @param options how to write it
     * @return a cold {@code Mono} completing once the file is written and closed (and forced, with
     *     sync)
     * @throws NullPointerException if an argument is {@code null}
     */
    public static Mono<Void> transferTo(FilePart part, Path dest, WriteOptions options) {
        Objects.requireNonNull(part, "part");
        return DataBufferFiles.write(part.content(), dest, options).then();
    }
}
