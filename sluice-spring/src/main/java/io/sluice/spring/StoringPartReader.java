package io.sluice.spring;

import io.sluice.IoExecutors;
import io.sluice.WriteMode;
import io.sluice.WriteOptions;
import io.sluice.internal.Directories;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.reactivestreams.Publisher;
import org.springframework.core.ResolvableType;
import org.springframework.core.codec.DecodingException;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ReactiveHttpInputMessage;
import org.springframework.http.codec.HttpMessageReader;
import org.springframework.http.codec.multipart.FilePart;
import org.springframework.http.codec.multipart.FilePartEvent;
import org.springframework.http.codec.multipart.FormFieldPart;
import org.springframework.http.codec.multipart.FormPartEvent;
import org.springframework.http.codec.multipart.Part;
import org.springframework.http.codec.multipart.PartEvent;
import org.springframework.http.codec.multipart.PartEventHttpMessageReader;
import org.springframework.util.Assert;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A multipart reader for {@code @RequestPart FilePart}, {@code Flux<Part>} and
 * {@code exchange.getMultipartData()} that stores each file part through sluice and moves it on
 * {@link FilePart#transferTo(Path)}: registered in place of Spring's
 * {@code DefaultPartHttpMessageReader}, a handler's {@code part.transferTo(dest)} renames the file
 * the upload was written to instead of copying it, so each uploaded byte is written once.
 *
 * <pre>{@code
 * @Bean
 * WebFluxConfigurer sluiceParts() {
 *     return new WebFluxConfigurer() {
 *         public void configureHttpMessageCodecs(ServerCodecConfigurer configurer) {
 *             StoringPartReader parts = new StoringPartReader(storage, WriteOptions.defaults());
 *             configurer.defaultCodecs().multipartReader(new MultipartHttpMessageReader(parts)); // @RequestPart
 *             configurer.customCodecs().register(parts);                                        // Flux<Part>
 *         }
 *     };
 * }
 * }</pre>
 * ({@code sluice-spring-boot} registers one by itself, with Boot's {@code spring.webflux.multipart.*}
 * limits.)
 *
 * <p>The form is parsed by sluice's own multipart parser, which reads the body as Spring's
 * {@link PartEventHttpMessageReader} does (the same parts, headers, limits and errors) but finds each
 * part's end with a skipping search and hands its content on as slices of the body's buffers. It
 * enforces the limits set here (parts, headers, form fields in memory, bytes per part). A form field becomes a
 * {@link FormFieldPart} held in memory. A file part's content is written, as it arrives, to a new
 * file in the storage directory by {@link DataBufferFiles#write(org.reactivestreams.Publisher, Path,
 * WriteOptions)} (the given options with {@link WriteMode#CREATE_NEW}), or by the given
 * {@link PartWriter}; the part is emitted once its
 * file is written and closed. Its first {@code transferTo(dest)} moves that file to {@code dest},
 * replacing what is there (a rename within one file system, else a copy and a delete, as
 * {@link Files#move} does); a later one copies from {@code dest}. {@link Part#content()} reads the
 * file where it is; {@link Part#delete()} deletes it unless it was moved.
 *
 * <p><b>Threading:</b> parsing runs where the request's body signals; file opens, moves, copies
 * and deletes run on {@link IoExecutors#files()}, never on the caller's thread.
 *
 * <p><b>Backpressure:</b> a file part's content is written under the write's byte cap; the parser
 * is asked for at most 256 events ahead of the write (the store's cursor).
 *
 * <p><b>Resources:</b> every buffer of the body is released once: written, or read into a form
 * field's value, or released when the read ends early. A read that fails deletes every file it
 * stored that was not moved away, the emitted parts' too (no consumer can have the whole form); a
 * read that is cancelled deletes the file it was writing and leaves the parts it emitted to their
 * consumer, who may be moving them. After a read completes, the files belong to the parts, whose
 * {@code delete()} the server's exchange calls when the request ends.
 *
 * <p><b>Errors:</b> a form past a limit fails the read with the exception Spring's reader has for
 * it: a {@link DecodingException} for too many parts, a {@code DataBufferLimitException} for headers,
 * a form field or a part too large; so does a malformed body (a {@code DecodingException}: no
 * boundary in the Content-Type, none in the body, or a body that ends before its close delimiter).
 * WebFlux answers each with a 4xx status. A failed write fails the read with the write's error.
 */
public final class StoringPartReader implements HttpMessageReader<Part> {

    private static final Log LOG = LogFactory.getLog(StoringPartReader.class);
    private static final Scheduler FILES = Schedulers.fromExecutor(IoExecutors.files());

    private final Path storage; // where file parts wait for their transferTo
    private final PartWriter writer; // writes each file part's content to its new file
    private volatile MultipartLimits limits =
            MultipartLimits.DEFAULTS; // setters replace it (configuration, one thread); a read takes it as it begins

    /**
     * How a file part's content is written to the new file the reader chose for it: by default
     * {@link DataBufferFiles#write(org.reactivestreams.Publisher, Path, WriteOptions)}; an
     * application that measures or observes its writes passes one that does.
     */
    @FunctionalInterface
    public interface PartWriter {
        /**
         * Writes a file part's content to {@code file}.
         *
         * @param content the part's content; every buffer must be released once, written or not, as
         *     {@code DataBufferFiles.write} releases them
         * @param file a file in the storage directory that does not exist yet: the write creates it,
         *     and must fail rather than write over a file that exists
         * @return a cold {@code Mono} of the bytes written, which fails if the write does; cancelling
         *     it cancels the write
         */
        Mono<Long> write(Publisher<DataBuffer> content, Path file);
    }

    /**
     * A reader that stores file parts in {@code storage}, written as {@code options} say (its
     * executor, demand, byte cap, sync), each in a new file.
     *
     * @param storage an existing directory; a part moved by {@code transferTo} leaves it, so it
     *     is best on the file system the handlers move parts to
     * @param options how to write the stored files; their mode is always create-new
     * @throws NullPointerException if an argument is {@code null}
     */
    public StoringPartReader(Path storage, WriteOptions options) {
        this(storage, createNew(options));
    }

    /**
     * A reader that stores file parts in {@code storage}, each written by {@code writer} to a new
     * file.
     *
     * @param storage an existing directory, as for {@link #StoringPartReader(Path, WriteOptions)}
     * @param writer writes each file part's content to its new file
     * @throws NullPointerException if an argument is {@code null}
     */
    public StoringPartReader(Path storage, PartWriter writer) {
        this.storage = Objects.requireNonNull(storage, "storage");
        this.writer = Objects.requireNonNull(writer, "writer");
    }

    private static PartWriter createNew(WriteOptions options) {
        WriteOptions creating = Objects.requireNonNull(options, "options").withMode(WriteMode.CREATE_NEW);
        return (content, file) -> DataBufferFiles.write(content, file, creating);
    }

    /**
     * The most parts a form may have; {@code -1} (the default) for no limit.
     *
     * @param maxParts the limit, or -1
     */
    public void setMaxParts(int maxParts) {
        limits = limits.withMaxParts(maxParts);
    }

    /**
     * The most bytes a form field may have, held in memory (256 KiB by default, as Spring's).
     *
     * @param maxInMemorySize the limit in bytes
     */
    public void setMaxInMemorySize(int maxInMemorySize) {
        limits = limits.withMaxInMemorySize(maxInMemorySize);
    }

    /**
     * The most bytes a part's headers may have (10 KiB by default, as Spring's).
     *
     * @param maxHeadersSize the limit in bytes
     */
    public void setMaxHeadersSize(int maxHeadersSize) {
        limits = limits.withMaxHeadersSize(maxHeadersSize);
    }

    /**
     * The most bytes any part may have, a file part's on disk included; {@code -1} (the default)
     * for no limit.
     *
     * @param maxPartSize the limit in bytes, or -1
     */
    public void setMaxPartSize(long maxPartSize) {
        limits = limits.withMaxPartSize(maxPartSize);
    }

    /**
     * The charset of the parts' headers (UTF-8 by default).
     *
     * @param charset the charset
     */
    public void setHeadersCharset(Charset charset) {
        Assert.notNull(charset, "Charset must not be null"); // as Spring's reader refuses it
        limits = limits.withHeadersCharset(charset);
    }

    /**
     * The directory file parts are stored in.
     *
     * @return the directory given at construction
     */
    public Path storage() {
        return storage;
    }

    @Override
    public List<MediaType> getReadableMediaTypes() {
        return List.of(MediaType.MULTIPART_FORM_DATA);
    }

    @Override
    public boolean canRead(ResolvableType elementType, MediaType mediaType) {
        return Part.class.equals(elementType.toClass())
                && (mediaType == null || MediaType.MULTIPART_FORM_DATA.isCompatibleWith(mediaType));
    }

    @Override
    public Mono<Part> readMono(
            ResolvableType elementType, ReactiveHttpInputMessage message, Map<String, Object> hints) {
        return Mono.error(new UnsupportedOperationException("A multipart body is read as a Flux<Part>, not one Part"));
    }

    @Override
    public Flux<Part> read(ResolvableType elementType, ReactiveHttpInputMessage message, Map<String, Object> hints) {
        return Flux.deferContextual(context -> {
            StoredFiles files = new StoredFiles();
            MultipartLimits limits = this.limits;
            return Flux.using(
                            () -> PartCursor.over(MultipartPublisher.read(message, limits), context),
                            cursor -> Mono.defer(() ->
                                            cursor.nextHead().flatMap(head -> readPart(head.event(), cursor, files)))
                                    .repeat(() -> !cursor.ended()),
                            PartCursor::cancel)
                    .doOnError(failure -> files.deleteAll())
                    .doOnCancel(files::deleteUnfinished)
                    .doOnComplete(files::release);
        });
    }

    private Mono<Part> readPart(PartEvent head, PartCursor cursor, StoredFiles files) {
        if (head instanceof FilePartEvent file) {
            Path path = storage.resolve("part-" + UUID.randomUUID());
            files.unfinished.add(path);
            // last(): the part goes out once the write has completed, not at its count, so whatever
            // observes the write has seen it end before anyone holds the part
            return writer.write(cursor.partContents(), path).flux().last().map(size -> {
                files.unfinished.remove(path);
                files.unmoved.add(path);
                return new StoredFilePart(file.name(), file.filename(), file.headers(), path, files.unmoved);
            });
        }
        String value = head instanceof FormPartEvent form ? form.value() : "";
        return Flux.from(cursor.partContents())
                .doOnNext(DataBufferUtils::release)
                .then(Mono.fromSupplier(() -> new FormField(head.name(), head.headers(), value)));
    }

    /**
     * The files one read stored. While it runs, a file part's file is unfinished until written,
     * then unmoved until its part's first transfer moves it. A read that fails deletes both kinds:
     * no consumer can have the whole form, and {@code exchange.getMultipartData()} drops the parts
     * it collected. A read that is cancelled deletes the unfinished only: the parts emitted are
     * the consumer's, which may be moving them. A read that completes hands every file to its part.
     */
    private static final class StoredFiles {
        final Set<Path> unfinished = ConcurrentHashMap.newKeySet(); // being written
        final Set<Path> unmoved = ConcurrentHashMap.newKeySet(); // emitted, not yet moved by a transfer

        void deleteAll() {
            deleteLater(unfinished);
            deleteLater(unmoved);
        }

        void deleteUnfinished() {
            deleteLater(unfinished);
        }

        void release() {
            unmoved.clear();
        }
    }

    /** Deletes {@code files} on the file executor: the read that wrote them ended without its parts. */
    private static void deleteLater(Set<Path> files) {
        List<Path> doomed = List.copyOf(files);
        files.clear();
        if (!doomed.isEmpty()) {
            FILES.schedule(() -> doomed.forEach(StoringPartReader::deleteQuietly));
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.warn("Deleting the stored part " + file, e);
        }
    }

    /** A form field, its value in memory. */
    private record FormField(String name, HttpHeaders headers, String value) implements FormFieldPart {
        @Override
        public Flux<DataBuffer> content() {
            return Flux.defer(() -> Flux.just(DefaultDataBufferFactory.sharedInstance.wrap(value.getBytes(charset()))));
        }

        private Charset charset() {
            MediaType type = headers.getContentType();
            return type != null && type.getCharset() != null ? type.getCharset() : StandardCharsets.UTF_8;
        }
    }

    /** A file part stored by sluice: moved by its first transfer, read and deleted where it is. */
    static final class StoredFilePart implements FilePart {
        private final String name;
        private final String filename;
        private final HttpHeaders headers;
        private final Path stored; // the file the upload was written to
        private final Set<Path> unmoved; // the read's emitted files not yet moved; this one leaves on move
        private Path location; // guarded by this: stored, then the first transfer's target
        private boolean moved; // guarded by this

        StoredFilePart(String name, String filename, HttpHeaders headers, Path stored, Set<Path> unmoved) {
            this.name = name;
            this.filename = filename;
            this.headers = headers;
            this.stored = stored;
            this.unmoved = unmoved;
            this.location = stored;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String filename() {
            return filename;
        }

        @Override
        public HttpHeaders headers() {
            return headers;
        }

        @Override
        public Flux<DataBuffer> content() {
            return Flux.defer(() -> DataBufferFiles.read(location()));
        }

        /**
         * Moves the stored file to {@code dest} the first time, replacing what is there; copies it
         * from there on a later call. Runs on the file executor.
         */
        @Override
        public Mono<Void> transferTo(Path dest) {
            return transferTo(dest, false, false);
        }

        /**
         * {@link #transferTo(Path)}; with {@code sync}, the file at {@code dest} and its directory
         * are forced before the {@code Mono} completes, so that a crash after it leaves the whole
         * file under that name; with {@code atomic}, the first transfer is a rename or nothing: a
         * {@code dest} on another file system fails it with {@link AtomicMoveNotSupportedException},
         * the stored file untouched.
         */
        Mono<Void> transferTo(Path dest, boolean sync, boolean atomic) {
            Objects.requireNonNull(dest, "dest");
            return Mono.fromCallable(() -> {
                        transfer(dest, sync, atomic);
                        return null;
                    })
                    .subscribeOn(FILES)
                    .then();
        }

        private synchronized void transfer(Path dest, boolean sync, boolean atomic) throws IOException {
            if (moved) {
                Files.copy(location, dest, StandardCopyOption.REPLACE_EXISTING);
            } else {
                if (atomic) {
                    Files.move(stored, dest, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } else {
                    Files.move(stored, dest, StandardCopyOption.REPLACE_EXISTING);
                }
                unmoved.remove(stored);
                moved = true;
                location = dest;
            }
            if (sync) {
                try (FileChannel file = FileChannel.open(dest, StandardOpenOption.READ)) {
                    file.force(true);
                }
                Directories.forceParentOf(dest);
            }
        }

        private synchronized Path location() {
            return location;
        }

        /** Deletes the stored file unless a transfer moved it: the moved file is the handler's. */
        @Override
        public Mono<Void> delete() {
            return Mono.fromRunnable(this::deleteUnlessMoved).subscribeOn(FILES).then();
        }

        private synchronized void deleteUnlessMoved() {
            if (!moved) {
                unmoved.remove(stored);
                deleteQuietly(stored);
            }
        }

        @Override
        public String toString() {
            return "StoredFilePart{" + name + ", " + filename + " at " + location() + "}";
        }
    }
}
