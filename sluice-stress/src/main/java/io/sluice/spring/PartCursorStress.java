package io.sluice.spring;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DataBufferWrapper;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.core.io.buffer.PooledDataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.codec.multipart.PartEvent;
import reactor.core.publisher.Flux;
import reactor.util.context.Context;

import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link PartCursor}, under {@code FileParts.store}: the store ending, which cancels the cursor,
 * races an event arriving from the upstream while the part's subscriber has asked for it, or the
 * subscriber asking for an event already queued. Whether the subscriber got the event (and
 * released it) or the cursor kept it, its buffer is released exactly once: nothing the cursor holds
 * when cancelled, or receives after, is lost (P1).
 *
 * <p>Result of each: {@code releases of the event's buffer, whether the subscriber received it}.
 */
public class PartCursorStress {

    /** The event arrives (actor 1), with the subscriber's request already made, as the store ends (actor 2). */
    @JCStressTest
    @Outcome(
            id = {"1, 0", "1, 1"},
            expect = ACCEPTABLE,
            desc = "released once, by the cursor or by the subscriber it reached")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "held by the cancelled cursor, never released")
    @Outcome(expect = FORBIDDEN, desc = "released twice")
    @State
    public static class ArrivalRacesCancel extends Fixture {
        public ArrivalRacesCancel() {
            part.request(1);
        }

        @Actor
        public void upstream() {
            upstream.onNext(event);
        }

        @Actor
        public void storeEnds() {
            cursor.cancel();
        }

        @Arbiter
        public void arbiter(II_Result result) {
            result.r1 = releases.get();
            result.r2 = received.get();
        }
    }

    /** The subscriber asks (actor 1) for the event queued already, as the store ends (actor 2). */
    @JCStressTest
    @Outcome(
            id = {"1, 0", "1, 1"},
            expect = ACCEPTABLE,
            desc = "released once, by the cursor or by the subscriber it reached")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "held by the cancelled cursor, never released")
    @Outcome(expect = FORBIDDEN, desc = "released twice")
    @State
    public static class RequestRacesCancel extends Fixture {
        public RequestRacesCancel() {
            upstream.onNext(event);
        }

        @Actor
        public void partRequests() {
            part.request(1);
        }

        @Actor
        public void storeEnds() {
            cursor.cancel();
        }

        @Arbiter
        public void arbiter(II_Result result) {
            result.r1 = releases.get();
            result.r2 = received.get();
        }
    }

    /** A cursor over an upstream the test drives, with a part's subscriber that releases what it receives. */
    abstract static class Fixture {
        final AtomicInteger releases = new AtomicInteger();
        final AtomicInteger received = new AtomicInteger();
        final PartEvent event = new ContentEvent(new CountedBuffer(releases));
        final PartCursor cursor;
        Subscriber<? super PartEvent> upstream;
        Subscription part;

        Fixture() {
            cursor = PartCursor.over(
                    Flux.from(subscriber -> {
                        upstream = subscriber;
                        subscriber.onSubscribe(new Subscription() {
                            @Override
                            public void request(long n) {}

                            @Override
                            public void cancel() {}
                        });
                    }),
                    Context.empty());
            cursor.partContents().subscribe(new Subscriber<DataBuffer>() {
                @Override
                public void onSubscribe(Subscription subscription) {
                    part = subscription;
                }

                @Override
                public void onNext(DataBuffer buffer) {
                    received.incrementAndGet();
                    DataBufferUtils.release(buffer);
                }

                @Override
                public void onError(Throwable failure) {}

                @Override
                public void onComplete() {}
            });
        }
    }

    /** An event of a file part, not its last, carrying {@code content}. */
    private record ContentEvent(DataBuffer content) implements PartEvent {
        @Override
        public HttpHeaders headers() {
            return HttpHeaders.EMPTY;
        }

        @Override
        public boolean isLast() {
            return false;
        }
    }

    /** A pooled buffer that counts its releases. */
    private static final class CountedBuffer extends DataBufferWrapper implements PooledDataBuffer {
        private final AtomicInteger releases;

        CountedBuffer(AtomicInteger releases) {
            super(DefaultDataBufferFactory.sharedInstance.allocateBuffer(1));
            this.releases = releases;
        }

        @Override
        public boolean isAllocated() {
            return releases.get() == 0;
        }

        @Override
        public PooledDataBuffer retain() {
            return this;
        }

        @Override
        public PooledDataBuffer touch(Object hint) {
            return this;
        }

        @Override
        public boolean release() {
            return releases.incrementAndGet() == 1;
        }
    }
}
