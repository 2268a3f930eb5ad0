package io.sluice.spring;

import io.sluice.WriteMode;
import io.sluice.WriteOptions;
import org.reactivestreams.Publisher;
import org.springframework.http.codec.multipart.FilePart;
import org.springframework.http.codec.multipart.FilePartEvent;
import org.springframework.http.codec.multipart.PartEvent;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Function;

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
 * <p>{@link #store(Publisher, Function, WriteOptions)} streams instead: given the {@code PartEvent}s of
 * a form ({@code @RequestBody Flux<PartEvent> parts}), it writes each file part's content to its
 * target as it arrives, with no temporary file in between:
 *
 * <pre>{@code
 * return FileParts.store(parts, file -> file.name().equals("file") ? target : null, options);
 * }</pre>
 *
 * <p>Needs {@code spring-web} (WebFlux), which {@code sluice-spring} declares optional; only this
 * class uses it.
 *
 * <p><b>Threading, Backpressure, Resources:</b> as {@link DataBufferFiles#write(org.reactivestreams.Publisher,
 * Path, WriteOptions)} on {@link FilePart#content()}, or on each stored part's event contents: each
 * buffer is released once its bytes are written, or when the transfer ends without them; the
 * buffers of a part that is not stored (a form field, a file part given no target) are released as
 * they arrive, unread.
 *
 * <p><b>Errors:</b> a {@code null} argument throws {@link NullPointerException} at the call; a
 * failure to write (a missing directory, a directory as target, no permission, a full disk) or a
 * failed upload reaches the subscriber as {@code onError}.
 */
public final class FileParts {

    private FileParts() {}

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
     * WriteOptions)} on the part's content, which also gives the byte count. A part that a
     * {@link StoringPartReader} stored is moved instead when the mode is {@code TRUNCATE}: its file
     * is renamed over {@code dest}, then forced with its directory if {@code options} sync; with
     * atomic replace and {@code dest} on another file system, where no rename can reach, its
     * content is written as atomic replace writes; other modes write its content.
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
        Objects.requireNonNull(dest, "dest");
        if (part instanceof StoringPartReader.StoredFilePart stored && options.mode() == WriteMode.TRUNCATE) {
            // Already written by sluice: a rename replaces dest at once. Atomic replace takes a
            // rename only; across file systems it writes the content as any other part's.
            Mono<Void> moved = stored.transferTo(dest, options.sync(), options.atomicReplace());
            return options.atomicReplace()
                    ? moved.onErrorResume(
                            AtomicMoveNotSupportedException.class,
                            crossing -> DataBufferFiles.write(part.content(), dest, options)
                                    .then())
                    : moved;
        }
        return DataBufferFiles.write(part.content(), dest, options).then();
    }

    /**
     * Writes each file part of a streamed form to the file {@code targetOf} names for it, as its
     * content arrives, one part after another; {@link #store(Publisher, Function, WriteOptions)}
     * with {@link WriteOptions#defaults()}.
     *
     * @param parts the form's events, as {@code PartEventHttpMessageReader} emits them
     * @param targetOf the file for a part, given its first event; {@code null} skips the part
     * @return a cold {@code Flux} of the parts stored, each once its file is written and closed
     * @throws NullPointerException if an argument is {@code null}
     */
    public static Flux<StoredPart> store(Publisher<PartEvent> parts, Function<? super FilePartEvent, Path> targetOf) {
        return store(parts, targetOf, WriteOptions.defaults());
    }

    /**
     * Writes each file part of a streamed form to the file {@code targetOf} names for it, as
     * {@code options} say, as its content arrives: the part's events' contents go straight to
     * {@link DataBufferFiles#write(Publisher, Path, WriteOptions)}, with no temporary file. A part
     * ends at the event whose {@link PartEvent#isLast()} is true; a file part with no content gives
     * an empty file. Form fields ({@code FormPartEvent}s) and file parts for which {@code targetOf}
     * returns {@code null} are skipped, their buffers released.
     *
     * <p>Parts are written one at a time, in order: a part's file is closed before the next part's
     * file is opened. The store keeps up to 256 events requested ahead of the write, as
     * {@code windowUntil} would. When the store ends early (cancelled, failed), the events it holds are released, and any that
     * arrive after; so are those the upstream's operators hold, through their discard hook. The
     * upstream is subscribed with the store subscriber's context. A failed write, a failed
     * {@code targetOf} or a failed upload ends the {@code Flux} with that error, and the part being
     * written is left as {@code options} say (with atomic replace: no file under its name).
     *
     * @param parts the form's events, as {@code PartEventHttpMessageReader} emits them
     * @param targetOf the file for a part, given its first event (whose content is still to be
     *     written or released here: the function must not release it); {@code null} skips the part
     * @param options how to write each file
     * @return a cold {@code Flux} of the parts stored, in order, each once its file is written and
     *     closed (and forced, with sync)
     * @throws NullPointerException if an argument is {@code null}
     */
    public static Flux<StoredPart> store(
            Publisher<PartEvent> parts, Function<? super FilePartEvent, Path> targetOf, WriteOptions options) {
        Objects.requireNonNull(parts, "parts");
        Objects.requireNonNull(targetOf, "targetOf");
        Objects.requireNonNull(options, "options");
        // A cursor rather than windowUntil + switchOnFirst: a Reactor window cancelled from one
        // thread while its drain runs on another can drop the event that drain has just polled,
        // unreleased. The cursor holds every event not yet handed to a write and releases them
        // when the store ends.
        return Flux.deferContextual(context -> Flux.using(
                () -> PartCursor.over(parts, context),
                cursor -> Mono.defer(() ->
                                cursor.nextHead().flatMap(head -> storeOne(head.event(), cursor, targetOf, options)))
                        .repeat(() -> !cursor.ended()),
                PartCursor::cancel));
    }

    /**
     * A file part {@link #store(Publisher, Function, WriteOptions)} wrote.
     *
     * @param name the part's form field name
     * @param filename the file name the client sent
     * @param file the file written
     * @param bytes how many bytes were written
     */
    public record StoredPart(String name, String filename, Path file, long bytes) {}

    private static Mono<StoredPart> storeOne(
            PartEvent first, PartCursor cursor, Function<? super FilePartEvent, Path> targetOf, WriteOptions options) {
        if (first instanceof FilePartEvent file) {
            Path target = targetOf.apply(file);
            if (target != null) {
                return DataBufferFiles.write(cursor.partContents(), target, options)
                        .map(bytes -> new StoredPart(file.name(), file.filename(), target, bytes));
            }
        }
        return cursor.skipPart().then(Mono.empty());
    }
}
