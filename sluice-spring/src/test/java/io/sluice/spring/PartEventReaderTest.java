package io.sluice.spring;

import io.sluice.spring.MultipartForms.Body;
import io.sluice.spring.MultipartForms.Outcome;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.core.ResolvableType;
import org.springframework.core.codec.DecodingException;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.MediaType;
import org.springframework.http.codec.multipart.Part;
import org.springframework.http.codec.multipart.PartEvent;
import org.springframework.http.codec.multipart.PartEventHttpMessageReader;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Hooks;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The public reader against Spring's {@link PartEventHttpMessageReader} on the same bodies: the
 * same events for random forms, the same exception for each limit its setters set, the same media
 * types; and every body buffer (pooled Netty buffers) released once when its reader cancels or the
 * body fails. The parser itself is tested in {@link MultipartParserTest}.
 */
class PartEventReaderTest {

    private static final DataBufferFactory POOLED = SpringBufferFactories.named("Netty 4 pooled direct");
    private static final ResolvableType PART_EVENT = MultipartForms.PART_EVENT;

    /** Spring's parser reports an error it drops (a second failure after the first) on the console. */
    @BeforeAll
    static void quietDroppedErrors() {
        Hooks.onErrorDropped(dropped -> {});
    }

    @AfterAll
    static void reportDroppedErrors() {
        Hooks.resetOnErrorDropped();
    }

    @Test
    void randomFormsGiveSpringsEvents() throws InterruptedException {
        Random random = new Random(20261128);
        int parts = 0;
        for (int form = 0; form < 40; form++) {
            Body body = MultipartForms.form(random, 6);
            int[] ends = MultipartForms.cuts(random, body.bytes(), body.boundary());
            parts += assertSameAsSpring(body, ends, reader -> {}, spring -> {})
                    .parts()
                    .size();
        }
        assertTrue(parts > 40, "the forms had parts: " + parts);
    }

    @ParameterizedTest
    @ValueSource(strings = {"parts", "headers", "in-memory", "part"})
    void eachLimitSetFailsAsSpringsReaderFailsAndOneMetHolds(String limit) throws InterruptedException {
        Body body = threeParts();
        int[] ends = IntStream.rangeClosed(1, body.bytes().length / 7 + 1)
                .map(n -> Math.min(n * 7, body.bytes().length))
                .distinct()
                .toArray();
        int[][] settings = {
            {3, 2},
            {HEADERS_SIZE, HEADERS_SIZE - 1},
            {FIELD.length(), FIELD.length() - 1},
            {FILE.length(), FILE.length() - 1}
        };
        int index = List.of("parts", "headers", "in-memory", "part").indexOf(limit);
        Class<?> exceeded = limit.equals("parts") ? DecodingException.class : DataBufferLimitException.class;
        for (int setting : settings[index]) {
            Outcome ours = assertSameAsSpring(
                    body, ends, reader -> set(reader, limit, setting), spring -> set(spring, limit, setting));
            boolean met = setting == settings[index][0];
            assertEquals(met ? null : exceeded, ours.error(), limit + " " + setting + ": " + ours.message());
        }
    }

    @Test
    void itReadsWhatSpringsReadsAndNothingElse() {
        PartEventReader reader = new PartEventReader();
        PartEventHttpMessageReader spring = new PartEventHttpMessageReader();

        assertEquals(spring.getReadableMediaTypes(), reader.getReadableMediaTypes());
        for (MediaType type :
                List.of(MediaType.MULTIPART_FORM_DATA, MediaType.MULTIPART_MIXED, MediaType.APPLICATION_JSON)) {
            for (Class<?> element : List.of(PartEvent.class, Part.class, DataBuffer.class)) {
                ResolvableType elementType = ResolvableType.forClass(element);
                assertEquals(
                        spring.canRead(elementType, type), reader.canRead(elementType, type), element + " " + type);
            }
        }
        assertTrue(reader.canRead(PART_EVENT, null));
        assertThrows(
                UnsupportedOperationException.class,
                () -> reader.readMono(PART_EVENT, threeParts().request(Flux.empty()), Map.of())
                        .block());
        assertThrows(IllegalArgumentException.class, () -> reader.setHeadersCharset(null));
    }

    @Test
    void aCancelAfterAnyNumberOfEventsReleasesEveryBufferOnce() throws InterruptedException {
        Body body = threeParts();
        int[] ends = IntStream.rangeClosed(1, body.bytes().length / 5 + 1)
                .map(n -> Math.min(n * 5, body.bytes().length))
                .distinct()
                .toArray();
        for (int cancelAfter = 0; cancelAfter <= 4; cancelAfter++) {
            TrackedBuffers buffers = MultipartForms.cut(POOLED, body.bytes(), ends);
            new PartEventReader()
                    .read(PART_EVENT, body.request(buffers.flux()), Map.of())
                    .take(cancelAfter)
                    .doOnNext(event -> DataBufferUtils.release(event.content()))
                    .blockLast(MultipartForms.WAIT);
            assertAllReleasedOnce(buffers);
        }
    }

    @Test
    void aBodyThatFailsMidFormFailsTheReadAndReleasesEveryBufferOnce() throws InterruptedException {
        Body body = threeParts();
        int[] ends = IntStream.rangeClosed(1, body.bytes().length / 5 + 1)
                .map(n -> Math.min(n * 5, body.bytes().length))
                .distinct()
                .toArray();
        for (int failAfter = 0; failAfter < ends.length / 2; failAfter++) {
            TrackedBuffers buffers = MultipartForms.cut(POOLED, body.bytes(), ends);
            IllegalStateException failure = new IllegalStateException("the connection broke");
            Flux<DataBuffer> failing = buffers.flux().take(failAfter).concatWith(Flux.error(failure));
            Outcome outcome =
                    MultipartForms.outcome(new PartEventReader().read(PART_EVENT, body.request(failing), Map.of()));
            assertEquals(IllegalStateException.class, outcome.error(), "after " + failAfter + " buffers");
            assertAllReleasedOnce(buffers);
        }
    }

    // ---- helpers ----

    private static final String FIELD = "a field's value, 31 bytes long.";
    private static final String FILE = "a file's content, longer than the field's";
    private static final String BOUNDARY = "reader-boundary";
    /** The file part's headers as the limit counts them: from the boundary's end through the blank line, less one. */
    private static final int HEADERS_SIZE =
            ("\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f.bin\"\r\n\r\n").length() - 1;

    private static Body threeParts() {
        return new Body(
                BOUNDARY,
                ("--" + BOUNDARY + "\r\n"
                                + "Content-Disposition: form-data; name=\"field\"\r\n\r\n" + FIELD + "\r\n--" + BOUNDARY
                                + "\r\n"
                                + "Content-Disposition: form-data; name=\"file\"; filename=\"f.bin\"\r\n\r\n" + FILE
                                + "\r\n--" + BOUNDARY + "\r\n"
                                + "Content-Disposition: form-data; name=\"x\"\r\n\r\nx\r\n--" + BOUNDARY + "--\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
    }

    private static void set(PartEventReader reader, String limit, int value) {
        switch (limit) {
            case "parts" -> reader.setMaxParts(value);
            case "headers" -> reader.setMaxHeadersSize(value);
            case "in-memory" -> reader.setMaxInMemorySize(value);
            default -> reader.setMaxPartSize(value);
        }
    }

    private static void set(PartEventHttpMessageReader reader, String limit, int value) {
        switch (limit) {
            case "parts" -> reader.setMaxParts(value);
            case "headers" -> reader.setMaxHeadersSize(value);
            case "in-memory" -> reader.setMaxInMemorySize(value);
            default -> reader.setMaxPartSize(value);
        }
    }

    private static Outcome assertSameAsSpring(
            Body body, int[] ends, Consumer<PartEventReader> ours, Consumer<PartEventHttpMessageReader> springs)
            throws InterruptedException {
        PartEventHttpMessageReader spring = new PartEventHttpMessageReader();
        springs.accept(spring);
        Outcome expected = MultipartForms.outcome(spring.read(
                PART_EVENT,
                body.request(MultipartForms.untracked(DefaultDataBufferFactory.sharedInstance, body.bytes(), ends)),
                Map.of()));
        PartEventReader reader = new PartEventReader();
        ours.accept(reader);
        TrackedBuffers buffers = MultipartForms.cut(POOLED, body.bytes(), ends);
        Outcome actual = MultipartForms.outcome(reader.read(PART_EVENT, body.request(buffers.flux()), Map.of()));
        assertEquals(
                expected.error(),
                actual.error(),
                body + ": Spring's " + expected.message() + ", ours " + actual.message());
        if (expected.error() == null) {
            assertEquals(expected.parts(), actual.parts(), body.toString());
        }
        assertAllReleasedOnce(buffers);
        return actual;
    }

    private static void assertAllReleasedOnce(TrackedBuffers buffers) throws InterruptedException {
        assertEquals(List.of(), buffers.problems());
        assertEquals(
                Collections.nCopies(buffers.createdCount(), 1),
                buffers.releaseCounts(),
                "each body buffer released once");
        SpringBufferFactories.assertNoLiveAllocations(POOLED);
    }
}
