package io.sluice.spring;

import io.sluice.spring.MultipartForms.Body;
import io.sluice.spring.MultipartForms.Outcome;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.reactivestreams.Subscription;
import org.springframework.core.codec.DecodingException;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.MediaType;
import org.springframework.http.codec.multipart.PartEvent;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Hooks;
import reactor.util.context.Context;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The parser on the bodies and the subscribers that attack it: malformed bodies and each limit,
 * met exactly and exceeded by one, against Spring's reader on the same body; a cancel at every
 * event, an upstream error after every buffer; the demand it passes on, the context, and the end at
 * the close delimiter. Every buffer of the body is released once on every path (pooled Netty
 * buffers, whose allocator counts every slice and copy too).
 */
class MultipartParserTest {

    private static final String BOUNDARY = "simple-boundary";
    private static final DataBufferFactory POOLED = SpringBufferFactories.named("Netty 4 pooled direct");

    /** Spring's parser reports an error it drops (a second failure after the first) on the console. */
    @BeforeAll
    static void quietDroppedErrors() {
        Hooks.onErrorDropped(dropped -> {});
    }

    @AfterAll
    static void reportDroppedErrors() {
        Hooks.resetOnErrorDropped();
    }

    // ---- malformed bodies: Spring's exception, nothing left allocated ----

    static Stream<Arguments> malformed() {
        String part = "--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"f\"; filename=\"f.bin\"\r\n\r\n";
        return Stream.of(
                malformed("an empty body", ""),
                malformed("a preamble only", "no boundary in here\r\n"),
                malformed("no close delimiter", part + "content that never ends"),
                malformed("content ending in a partial delimiter", part + "content\r\n--" + BOUNDARY.substring(0, 5)),
                malformed("truncated headers", "--" + BOUNDARY + "\r\nContent-Disposition: form-da"),
                malformed("a boundary line and nothing after it", "--" + BOUNDARY + "\r\n"),
                malformed("a single hyphen after the boundary", "--" + BOUNDARY + "-"),
                malformed("garbage after the boundary line", "--" + BOUNDARY + "garbage\r\nno blank line"),
                malformed(
                        "garbage after the boundary, then a part",
                        "--" + BOUNDARY + "garbage\r\n"
                                + "Content-Disposition: form-data; name=\"f\"\r\n\r\nvalue\r\n--" + BOUNDARY + "--"),
                malformed(
                        "headers over the limit",
                        "--" + BOUNDARY + "\r\nX-Long: " + "x".repeat(11 * 1024) + "\r\n\r\ncontent\r\n--" + BOUNDARY
                                + "--"),
                malformed(
                        "headers over the limit, never ending",
                        "--" + BOUNDARY + "\r\nX-Long: " + "x".repeat(11 * 1024)),
                malformed("the close delimiter only", "--" + BOUNDARY + "--"));
    }

    private static Arguments malformed(String name, String body) {
        return Arguments.of(Named.of(name, body));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void aMalformedBodyEndsAsSpringsReaderEndsItAndReleasesEveryBuffer(String text) throws InterruptedException {
        byte[] bytes = MultipartForms.ascii(text);
        for (int piece : new int[] {1, 3, 64, Math.max(1, bytes.length)}) {
            assertSameAsSpring(new Body(BOUNDARY, bytes), piece, MultipartForms.defaults());
        }
    }

    @Test
    void aContentTypeWithoutBoundaryFailsAsSpringsDoesWithoutReadingTheBody() {
        for (MediaType type : List.of(
                MediaType.MULTIPART_FORM_DATA, MediaType.parseMediaType("multipart/form-data; boundary=\"\""))) {
            AtomicBoolean subscribed = new AtomicBoolean();
            Flux<DataBuffer> body = Flux.<DataBuffer>empty().doOnSubscribe(subscription -> subscribed.set(true));
            MockServerHttpRequest request =
                    MockServerHttpRequest.post("/").contentType(type).body(body);

            Outcome ours = MultipartForms.outcome(MultipartPublisher.read(request, MultipartForms.defaults()));
            Outcome springs = MultipartForms.outcome(MultipartForms.spring(
                    MockServerHttpRequest.post("/").contentType(type).body(Flux.empty()), MultipartForms.defaults()));

            assertEquals(DecodingException.class, ours.error(), type.toString());
            assertEquals(springs.error(), ours.error(), type.toString());
            assertFalse(subscribed.get(), "the body is not read");
        }
    }

    // ---- limits: met exactly, exceeded by one ----

    private static final String FIELD = "a field's value, 31 bytes long.";
    private static final String FILE = "a file's content, longer than the field's";

    /** Three parts: a field, a file, another field. */
    private static Body threeParts() {
        return new Body(
                BOUNDARY,
                MultipartForms.ascii("--" + BOUNDARY + "\r\n"
                        + "Content-Disposition: form-data; name=\"field\"\r\n\r\n" + FIELD + "\r\n--" + BOUNDARY
                        + "\r\n"
                        + "Content-Disposition: form-data; name=\"file\"; filename=\"f.bin\"\r\n\r\n" + FILE + "\r\n--"
                        + BOUNDARY + "\r\n"
                        + "Content-Disposition: form-data; name=\"x\"\r\n\r\nx\r\n--" + BOUNDARY + "--\r\n"));
    }

    /** The headers' size as the limit counts it: from the boundary's end through the blank line, less one. */
    private static final int FILE_HEADERS_SIZE =
            ("\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f.bin\"\r\n\r\n").length() - 1;

    static Stream<Arguments> limits() {
        MultipartLimits none = MultipartLimits.DEFAULTS;
        return Stream.of(
                limit("3 parts of 3", new MultipartLimits(3, 10 * 1024, 256 * 1024, -1, StandardCharsets.UTF_8), null),
                limit(
                        "3 parts of 2",
                        new MultipartLimits(2, 10 * 1024, 256 * 1024, -1, StandardCharsets.UTF_8),
                        DecodingException.class),
                limit(
                        "headers at the limit",
                        new MultipartLimits(-1, FILE_HEADERS_SIZE, 256 * 1024, -1, StandardCharsets.UTF_8),
                        null),
                limit(
                        "headers one byte over",
                        new MultipartLimits(-1, FILE_HEADERS_SIZE - 1, 256 * 1024, -1, StandardCharsets.UTF_8),
                        DataBufferLimitException.class),
                limit(
                        "a field at the in-memory limit",
                        new MultipartLimits(-1, 10 * 1024, FIELD.length(), -1, StandardCharsets.UTF_8),
                        null),
                limit(
                        "a field one byte over the in-memory limit",
                        new MultipartLimits(-1, 10 * 1024, FIELD.length() - 1, -1, StandardCharsets.UTF_8),
                        DataBufferLimitException.class),
                limit(
                        "a field one byte over the part limit",
                        new MultipartLimits(-1, 10 * 1024, 256 * 1024, FIELD.length() - 1, StandardCharsets.UTF_8),
                        DataBufferLimitException.class),
                limit(
                        "a file at the part limit",
                        new MultipartLimits(-1, 10 * 1024, 256 * 1024, FILE.length(), StandardCharsets.UTF_8),
                        null),
                limit(
                        "a file one byte over the part limit",
                        new MultipartLimits(-1, 10 * 1024, 256 * 1024, FILE.length() - 1, StandardCharsets.UTF_8),
                        DataBufferLimitException.class),
                limit("no limits", none, null));
    }

    private static Arguments limit(String name, MultipartLimits limits, Class<? extends Throwable> expected) {
        return Arguments.of(Named.of(name, limits), expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("limits")
    void aLimitMetHoldsAndOneExceededFailsAsSpringsReaderFails(
            MultipartLimits limits, Class<? extends Throwable> expected) throws InterruptedException {
        for (int piece : new int[] {1, 5, 64, 4096}) {
            Outcome ours = assertSameAsSpring(threeParts(), piece, limits);
            assertEquals(expected, ours.error(), "in pieces of " + piece + ": " + ours.message());
            if (expected == null) {
                assertEquals(3, ours.parts().size());
                assertEquals(FIELD, ours.parts().get(0).value());
            }
        }
    }

    // ---- cancel and upstream errors: every buffer released ----

    @Test
    void aCancelAfterAnyNumberOfEventsReleasesEveryBuffer_N1_N2() throws InterruptedException {
        Body body = threeParts();
        int[] ends = pieces(body.bytes().length, 4);
        Long events = MultipartPublisher.read(
                        body.request(
                                MultipartForms.untracked(DefaultDataBufferFactory.sharedInstance, body.bytes(), ends)),
                        MultipartForms.defaults())
                .doOnNext(event -> DataBufferUtils.release(event.content()))
                .count()
                .block();
        for (int cancelAfter = 0; cancelAfter <= events + 1; cancelAfter++) {
            TrackedBuffers buffers = MultipartForms.cut(POOLED, body.bytes(), ends);
            CancellingReader reader = new CancellingReader(cancelAfter);
            MultipartPublisher.read(body.request(buffers.flux()), MultipartForms.defaults())
                    .subscribe(reader);
            assertTrue(reader.cancelled || reader.ended, "after " + cancelAfter);
            assertAllReleasedOnce(buffers);
        }
    }

    @Test
    void anUpstreamErrorAfterAnyBufferReachesTheSubscriberAndReleasesEveryBuffer_N1_N2() throws InterruptedException {
        Body body = threeParts();
        int[] ends = pieces(body.bytes().length, 3);
        byte[] close = MultipartForms.ascii("--" + BOUNDARY + "--");
        int closeEnd = MultipartForms.indexOf(body.bytes(), close, 0) + close.length;
        int formBuffers = (int) IntStream.of(ends).filter(end -> end < closeEnd).count() + 1;
        for (int failAfter = 0; failAfter <= ends.length; failAfter++) {
            TrackedBuffers buffers = MultipartForms.cut(POOLED, body.bytes(), ends);
            IllegalStateException failure = new IllegalStateException("the connection broke");
            Flux<DataBuffer> failing = buffers.flux().take(failAfter).concatWith(Flux.error(failure));
            AtomicReference<Throwable> seen = new AtomicReference<>();
            MultipartPublisher.read(body.request(failing), MultipartForms.defaults())
                    .doOnNext(event -> DataBufferUtils.release(event.content()))
                    .doOnError(seen::set)
                    .onErrorComplete()
                    .blockLast(MultipartForms.WAIT);
            if (failAfter < formBuffers) {
                assertSame(failure, seen.get(), "after " + failAfter + " buffers");
            } else {
                assertNull(seen.get(), "the form closed before the body failed");
            }
            assertAllReleasedOnce(buffers);
        }
    }

    @Test
    void aSubscriberThatThrowsEndsTheParseAndEveryBufferIsReleased_N4() throws InterruptedException {
        Body body = threeParts();
        TrackedBuffers buffers = MultipartForms.cut(POOLED, body.bytes(), pieces(body.bytes().length, 5));
        AtomicBoolean cancelled = new AtomicBoolean();
        List<PartEvent> received = new ArrayList<>();
        MultipartPublisher.read(
                        body.request(buffers.flux().doOnCancel(() -> cancelled.set(true))), MultipartForms.defaults())
                .subscribe(new org.reactivestreams.Subscriber<PartEvent>() {
                    @Override
                    public void onSubscribe(Subscription subscription) {
                        subscription.request(Long.MAX_VALUE);
                    }

                    @Override
                    public void onNext(PartEvent event) {
                        received.add(event);
                        DataBufferUtils.release(event.content());
                        throw new IllegalStateException("a subscriber breaking §2.13");
                    }

                    @Override
                    public void onError(Throwable error) {}

                    @Override
                    public void onComplete() {}
                });
        assertEquals(1, received.size(), "nothing is signalled after the throw");
        assertTrue(cancelled.get(), "the body is cancelled");
        assertAllReleasedOnce(buffers);
    }

    // ---- demand, context, the end ----

    @Test
    void aBodyBufferIsRequestedOnlyWhileEventsAreWantedAndNoneAreInHand_N3() throws InterruptedException {
        Body body = threeParts();
        int[] ends = pieces(body.bytes().length, 7);
        TrackedBuffers buffers = MultipartForms.cut(POOLED, body.bytes(), ends);
        AtomicLong requested = new AtomicLong();
        AtomicLong delivered = new AtomicLong();
        Flux<DataBuffer> counted =
                buffers.flux().doOnRequest(requested::addAndGet).doOnNext(buffer -> delivered.incrementAndGet());
        List<PartEvent> received = new ArrayList<>();
        BaseSubscriber<PartEvent> reader = new BaseSubscriber<>() {
            @Override
            protected void hookOnSubscribe(Subscription subscription) {
                // no request yet
            }

            @Override
            protected void hookOnNext(PartEvent event) {
                received.add(event);
                DataBufferUtils.release(event.content());
            }
        };
        MultipartPublisher.read(body.request(counted), MultipartForms.defaults())
                .subscribe(reader);
        assertEquals(0, requested.get(), "nothing is read before an event is wanted");
        for (int event = 1; event <= 6 && !reader.isDisposed(); event++) {
            reader.request(1);
            assertEquals(event, received.size());
            assertTrue(requested.get() - delivered.get() <= 1, "one buffer asked for at a time");
            assertTrue(requested.get() <= delivered.get(), "none asked for while an event is in hand or not wanted");
        }
        reader.request(Long.MAX_VALUE);
        assertEquals(3, received.stream().filter(PartEvent::isLast).count());
        assertAllReleasedOnce(buffers);
    }

    @Test
    void theSubscribersContextReachesTheBody() {
        AtomicReference<String> seen = new AtomicReference<>();
        Body body = threeParts();
        Flux<DataBuffer> reading = Flux.deferContextual(context -> {
            seen.set(context.getOrDefault("request", "none"));
            return MultipartForms.untracked(
                    DefaultDataBufferFactory.sharedInstance, body.bytes(), pieces(body.bytes().length, 64));
        });
        MultipartPublisher.read(body.request(reading), MultipartForms.defaults())
                .doOnNext(event -> DataBufferUtils.release(event.content()))
                .contextWrite(Context.of("request", "upload-1"))
                .blockLast(MultipartForms.WAIT);
        assertEquals("upload-1", seen.get());
    }

    @Test
    void theCloseDelimiterCompletesTheEventsAndCancelsTheBodyUnread() throws InterruptedException {
        byte[] form = threeParts().bytes();
        byte[] epilogue = MultipartForms.ascii("an epilogue that is never read\r\n".repeat(20));
        byte[] bytes = new byte[form.length + epilogue.length];
        System.arraycopy(form, 0, bytes, 0, form.length);
        System.arraycopy(epilogue, 0, bytes, form.length, epilogue.length);
        Body body = new Body(BOUNDARY, bytes);
        TrackedBuffers buffers = MultipartForms.cut(POOLED, bytes, pieces(bytes.length, 16));
        AtomicBoolean cancelled = new AtomicBoolean();

        Outcome outcome = MultipartForms.outcome(MultipartPublisher.read(
                body.request(buffers.flux().doOnCancel(() -> cancelled.set(true))), MultipartForms.defaults()));

        assertNull(outcome.error());
        assertEquals(3, outcome.parts().size());
        assertTrue(cancelled.get(), "the body is cancelled at the close delimiter");
        assertTrue(buffers.createdCount() < pieces(bytes.length, 16).length, "the epilogue is not read");
        assertAllReleasedOnce(buffers);
    }

    // ---- helpers ----

    /** Ours and Spring's outcome on {@code body} in pieces of {@code piece}, equal; ours released every buffer. */
    private static Outcome assertSameAsSpring(Body body, int piece, MultipartLimits limits)
            throws InterruptedException {
        int[] ends = pieces(body.bytes().length, piece);
        Outcome springs = MultipartForms.outcome(MultipartForms.spring(
                body.request(MultipartForms.untracked(DefaultDataBufferFactory.sharedInstance, body.bytes(), ends)),
                limits));
        TrackedBuffers buffers = MultipartForms.cut(POOLED, body.bytes(), ends);
        Outcome ours = MultipartForms.outcome(MultipartPublisher.read(body.request(buffers.flux()), limits));
        String context = "in pieces of " + piece + "; Spring's: " + springs.message() + "; ours: " + ours.message();
        assertEquals(springs.error(), ours.error(), context);
        if (springs.error() == null) {
            assertEquals(springs.parts(), ours.parts(), context);
        }
        assertAllReleasedOnce(buffers);
        return ours;
    }

    private static int[] pieces(int length, int piece) {
        if (length == 0) {
            return new int[0];
        }
        return IntStream.iterate(piece, end -> end < length + piece, end -> end + piece)
                .map(end -> Math.min(end, length))
                .toArray();
    }

    private static void assertAllReleasedOnce(TrackedBuffers buffers) throws InterruptedException {
        assertEquals(List.of(), buffers.problems());
        assertEquals(
                Collections.nCopies(buffers.createdCount(), 1),
                buffers.releaseCounts(),
                "each body buffer released once");
        SpringBufferFactories.assertNoLiveAllocations(POOLED);
    }

    /** Requests one event at a time, releases each, and cancels after {@code cancelAfter}. */
    private static final class CancellingReader extends BaseSubscriber<PartEvent> {
        private final int cancelAfter;
        private int received;
        private boolean cancelled;
        private boolean ended;

        CancellingReader(int cancelAfter) {
            this.cancelAfter = cancelAfter;
        }

        @Override
        protected void hookOnSubscribe(Subscription subscription) {
            if (cancelAfter == 0) {
                cancelled = true;
                cancel();
            } else {
                request(1);
            }
        }

        @Override
        protected void hookOnNext(PartEvent event) {
            DataBufferUtils.release(event.content());
            if (++received == cancelAfter) {
                cancelled = true;
                cancel();
            } else {
                request(1);
            }
        }

        @Override
        protected void hookOnComplete() {
            ended = true;
        }

        @Override
        protected void hookOnError(Throwable throwable) {
            ended = true;
        }
    }
}
