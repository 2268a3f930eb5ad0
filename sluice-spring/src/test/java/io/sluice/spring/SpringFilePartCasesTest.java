package io.sluice.spring;

import io.sluice.WriteOptions;
import io.sluice.spring.SpringBufferFactories.EachFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.reactivestreams.Subscription;
import org.springframework.core.ResolvableType;
import org.springframework.core.codec.DecodingException;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.MediaType;
import org.springframework.http.codec.multipart.FilePart;
import org.springframework.http.codec.multipart.FormFieldPart;
import org.springframework.http.codec.multipart.Part;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Signal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The file-part cases of Spring Framework 6.2's {@code DefaultPartHttpMessageReaderTests}
 * (spring-web, read at v6.2.19), re-expressed for {@link StoringPartReader}, which replaces that
 * reader, and {@link FileParts#transferTo}: a browser's form of fields and files (two of one name)
 * whose file parts are transferred, a form with more parts than allowed, headers past their limit,
 * empty file parts, UTF-8 headers, a part's content cancelled after one buffer, and the form
 * cancelled after its first part. The forms are this class's own, cut into body buffers of 64
 * bytes as Spring's cases cut theirs.
 *
 * <p>Each case runs once per factory of {@link SpringBufferFactories}, the body's buffers being the
 * factory's own, as a server hands them over (Spring's parser joins and splits them with their
 * factory, so they cannot be wrapped to count releases). A Netty 4 buffer is retained once by the
 * test before it is sent, so after the case exactly one reference must be left: none would be a
 * double release, two a leak; the test then releases it, and a pooled allocator must have no live
 * allocation. A Netty 5 buffer, which has no reference count, must be closed, and closed once: a
 * second close is a double free, which {@link FailedReleaseLog} turns into a failure. Spring's
 * default buffers have no release to observe. Netty's leak detector runs at PARANOID meanwhile. Each buffer
 * a case reads from a part's content is released by it and checked freed.
 *
 * <p>Spring runs its cases with parts kept in memory and with parts on disk; sluice's reader
 * stores every file part on disk, so the in-memory axis does not apply. Where sluice differs by
 * design, the case says so in a line.
 */
@ExtendWith({ParanoidLeakDetection.class, FailedReleaseLog.class})
class SpringFilePartCasesTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ResolvableType PART = ResolvableType.forClass(Part.class);
    private static final String BOUNDARY = "sluice-form-7f3a";
    private static final String FIRST = "A first file's text, long enough to span two of the body's 64-byte buffers.";
    private static final String SECOND = "Another file's text, under the same field name, which must not be mixed up.";

    @TempDir
    Path storage;

    @TempDir
    Path uploads;

    private DataBufferFactory factory;
    private final List<DataBuffer> sent = Collections.synchronizedList(new ArrayList<>());
    private final List<DataBuffer> contentRead = Collections.synchronizedList(new ArrayList<>());

    @AfterEach
    void everyBodyBufferWasReleasedOnceAndItsMemoryWentBack() throws InterruptedException {
        if (factory == null) {
            return;
        }
        assertTrue(!sent.isEmpty(), "the body was read");
        List<DataBuffer> bodyBuffers = List.copyOf(sent);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!bodyBuffers.stream().allMatch(SpringBufferFactories::releasedBesidesTheTestsHold)
                && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        for (DataBuffer buffer : bodyBuffers) {
            assertTrue(SpringBufferFactories.releasedBesidesTheTestsHold(buffer), "not released once: " + buffer);
            SpringBufferFactories.releaseTheTestsHold(buffer);
            assertTrue(SpringBufferFactories.freed(buffer), "not freed: " + buffer);
        }
        synchronized (contentRead) {
            for (DataBuffer buffer : contentRead) {
                assertTrue(SpringBufferFactories.freed(buffer), "content buffer not freed: " + buffer);
            }
        }
        SpringBufferFactories.assertNoLiveAllocations(factory);
    }

    @EachFactory
    void aBrowsersFormComesBackAndEachFilePartIsMovedToWhereItIsTransferred(DataBufferFactory factory)
            throws IOException {
        StoringPartReader reader = new StoringPartReader(storage, WriteOptions.defaults());

        List<Part> parts = reader.read(PART, request(factory, browserForm()), Map.of())
                .collectList()
                .block(WAIT);

        assertEquals(
                List.of("text1", "text2", "file1", "file2", "file2"),
                parts.stream().map(Part::name).toList());
        assertEquals("a", ((FormFieldPart) parts.get(0)).value());
        assertEquals("b", ((FormFieldPart) parts.get(1)).value());
        assertEquals(
                List.of("a.txt", "a.txt", "b.txt"),
                parts.subList(2, 5).stream()
                        .map(part -> ((FilePart) part).filename())
                        .toList());
        Path first = uploads.resolve("first");
        Path second = Files.writeString(uploads.resolve("second"), "replaced, as transferTo replaces");
        Path third = uploads.resolve("third");
        ((FilePart) parts.get(2)).transferTo(first).block(WAIT);
        FileParts.transferTo((FilePart) parts.get(3), second).block(WAIT);
        FileParts.transferTo(
                        (FilePart) parts.get(4), third, WriteOptions.defaults().withAtomicReplace())
                .block(WAIT);
        assertEquals(FIRST, read(first));
        assertEquals(FIRST, read(second));
        assertEquals(SECOND, read(third));
        assertEquals(List.of(), list(storage), "each stored file was moved, none copied");
    }

    @EachFactory
    void aFormWithMorePartsThanAllowedFailsAfterTheFirstAndLeavesNoStoredFile(DataBufferFactory factory)
            throws Exception {
        // Differs from Spring, whose first part survives the failed form: sluice deletes every file
        // a failed read stored, the emitted parts' too, so a handler never moves half a form.
        StoringPartReader reader = new StoringPartReader(storage, WriteOptions.defaults());
        reader.setMaxParts(1);

        List<Signal<Part>> signals = reader.read(PART, request(factory, filesForm()), Map.of())
                .materialize()
                .collectList()
                .block(WAIT);

        assertEquals(2, signals.size(), signals.toString());
        FilePart first = (FilePart) signals.get(0).get();
        assertEquals("file2", first.name());
        assertEquals("a.txt", first.filename());
        assertInstanceOf(DecodingException.class, signals.get(1).getThrowable());
        awaitEmpty(storage);
    }

    @EachFactory
    void headersPastTheirLimitFailTheFormAndLeaveNoStoredFile(DataBufferFactory factory) throws Exception {
        StoringPartReader reader = new StoringPartReader(storage, WriteOptions.defaults());
        reader.setMaxHeadersSize(40);

        Throwable failure = reader.read(PART, request(factory, filesForm()), Map.of())
                .then(Mono.<Throwable>fromSupplier(() -> new AssertionError("read completed")))
                .onErrorResume(Mono::just)
                .block(WAIT);

        assertInstanceOf(DataBufferLimitException.class, failure);
        awaitEmpty(storage);
    }

    @EachFactory
    void emptyFilePartsAreTransferredAsEmptyFiles(DataBufferFactory factory) throws IOException {
        StoringPartReader reader = new StoringPartReader(storage, WriteOptions.defaults());
        String form = filePart("empty1", "none.txt", "") + filePart("empty2", "none.bin", "") + end();

        List<Part> parts = reader.read(PART, request(factory, form), Map.of())
                .collectList()
                .block(WAIT);

        assertEquals(2, parts.size());
        for (Part part : parts) {
            Path dest = uploads.resolve(part.name());
            ((FilePart) part).transferTo(dest).block(WAIT);
            assertEquals(0, Files.size(dest));
        }
    }

    @EachFactory
    void aPartsHeadersAreDecodedAsUtf8(DataBufferFactory factory) throws IOException {
        StoringPartReader reader = new StoringPartReader(storage, WriteOptions.defaults());
        String form = "--" + BOUNDARY + "\r\n"
                + "Content-Disposition: form-data; name=\"gr\u00fc\u00dfe\"; filename=\"stra\u00dfe.txt\"\r\n"
                + "X-Stra\u00dfe: \u00e4\u00f6\u00fc\r\n"
                + "\r\n" + FIRST + "\r\n" + end();

        List<Part> parts = reader.read(PART, request(factory, form), Map.of())
                .collectList()
                .block(WAIT);

        FilePart part = (FilePart) parts.get(0);
        assertEquals("gr\u00fc\u00dfe", part.name());
        assertEquals("stra\u00dfe.txt", part.filename());
        assertEquals(List.of("\u00e4\u00f6\u00fc"), part.headers().get("X-Stra\u00dfe"));
        Path dest = uploads.resolve("dest");
        FileParts.transferTo(part, dest).block(WAIT);
        assertEquals(FIRST, read(dest));
    }

    @EachFactory
    void cancellingOnePartsContentAfterOneBufferLeavesTheNextPartWhole(DataBufferFactory factory) throws Exception {
        StoringPartReader reader = new StoringPartReader(storage, WriteOptions.defaults());
        List<Part> parts = reader.read(PART, request(factory, filesForm()), Map.of())
                .collectList()
                .block(WAIT);
        FirstThenCancel firstBufferOnly = new FirstThenCancel();

        parts.get(0).content().subscribe(firstBufferOnly);

        assertTrue(firstBufferOnly.cancelled.await(30, TimeUnit.SECONDS));
        assertTrue(FIRST.startsWith(firstBufferOnly.text), firstBufferOnly.text);
        Path dest = uploads.resolve("dest");
        ((FilePart) parts.get(1)).transferTo(dest).block(WAIT);
        assertEquals(SECOND, read(dest));
        parts.get(0).delete().block(WAIT);
        assertEquals(List.of(), list(storage));
    }

    @EachFactory
    void cancellingTheFormAfterItsFirstPartLeavesThatPartToItsConsumerAndNoOtherFile(DataBufferFactory factory)
            throws Exception {
        StoringPartReader reader = new StoringPartReader(storage, WriteOptions.defaults());
        CountDownLatch cancelled = new CountDownLatch(1);
        List<Part> taken = Collections.synchronizedList(new ArrayList<>());

        reader.read(PART, request(factory, filesForm()), Map.of()).subscribe(new BaseSubscriber<>() {
            @Override
            protected void hookOnSubscribe(Subscription subscription) {
                request(1);
            }

            @Override
            protected void hookOnNext(Part part) {
                taken.add(part);
                cancel();
                cancelled.countDown();
            }
        });

        assertTrue(cancelled.await(30, TimeUnit.SECONDS));
        assertEquals(1, taken.size());
        FilePart first = (FilePart) taken.get(0);
        assertEquals("a.txt", first.filename());
        awaitEntries(storage, 1);
        Path dest = uploads.resolve("dest");
        first.transferTo(dest).block(WAIT);
        assertEquals(FIRST, read(dest));
        assertEquals(List.of(), list(storage));
    }

    // ---- the forms: this class's own, in the shapes of the browsers' forms Spring's cases read ----

    /** Two fields, then three file parts, two of them under one name. */
    private static String browserForm() {
        return field("text1", "a")
                + field("text2", "b")
                + filePart("file1", "a.txt", FIRST)
                + filePart("file2", "a.txt", FIRST)
                + filePart("file2", "b.txt", SECOND)
                + end();
    }

    /** Two file parts of one name. */
    private static String filesForm() {
        return filePart("file2", "a.txt", FIRST) + filePart("file2", "b.txt", SECOND) + end();
    }

    private static String field(String name, String value) {
        return "--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" + value + "\r\n";
    }

    private static String filePart(String name, String filename, String content) {
        return "--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"" + name + "\"; filename=\"" + filename
                + "\"\r\nContent-Type: text/plain\r\n\r\n" + content + "\r\n";
    }

    private static String end() {
        return "--" + BOUNDARY + "--\r\n";
    }

    /**
     * The form as the factory's buffers of 64 bytes, made as the reader requests them, each held
     * by the test ({@link SpringBufferFactories#holdForTheTest}) and recorded.
     */
    private MockServerHttpRequest request(DataBufferFactory factory, String form) {
        this.factory = factory;
        byte[] bytes = form.getBytes(StandardCharsets.UTF_8);
        Flux<DataBuffer> body = Flux.range(0, (bytes.length + 63) / 64).map(index -> {
            int start = index * 64;
            int length = Math.min(64, bytes.length - start);
            DataBuffer buffer = factory.allocateBuffer(length).write(bytes, start, length);
            SpringBufferFactories.holdForTheTest(buffer);
            sent.add(buffer);
            return buffer;
        });
        return MockServerHttpRequest.post("/upload")
                .contentType(new MediaType(MediaType.MULTIPART_FORM_DATA, Map.of("boundary", BOUNDARY)))
                .body(body);
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    private static List<Path> list(Path directory) throws IOException {
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.toList();
        }
    }

    /** Waits until {@code directory} is empty: a failed read deletes its files after it ends. */
    private static void awaitEmpty(Path directory) throws IOException, InterruptedException {
        awaitEntries(directory, 0);
    }

    /** Waits until {@code directory} holds {@code count} entries: a read deletes its files after it ends. */
    private static void awaitEntries(Path directory, int count) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (list(directory).size() != count && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(count, list(directory).size(), "stored files: " + list(directory));
    }

    /** Requests one buffer of a part's content, keeps its text, releases it, cancels. */
    private final class FirstThenCancel extends BaseSubscriber<DataBuffer> {
        final CountDownLatch cancelled = new CountDownLatch(1);
        volatile String text;

        @Override
        protected void hookOnSubscribe(Subscription subscription) {
            request(1);
        }

        @Override
        protected void hookOnNext(DataBuffer buffer) {
            contentRead.add(buffer);
            text = buffer.toString(StandardCharsets.UTF_8);
            DataBufferUtils.release(buffer);
            cancel();
            cancelled.countDown();
        }
    }
}
