package io.sluice.s3.internal;

import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.core.async.AsyncRequestBody;

import java.io.IOException;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * L1-L4: the answer's clock runs only after a whole body (its length taken, or its end), restarts with a retry's send, one outcome wins,
 * and a client that keeps the body after the call does not keep its bytes.
 */
class AnswerDeadlineTest {

    private static final IOException TIMED_OUT = new IOException("timed out");

    /** Takes every byte of {@code body}, as the client sends it; counts down once it has all of them. */
    private static CountDownLatch send(AsyncRequestBody body, boolean whole) {
        CountDownLatch taken = new CountDownLatch(1);
        body.subscribe(new Subscriber<ByteBuffer>() {
            @Override
            public void onSubscribe(Subscription subscription) {
                if (whole) {
                    subscription.request(Long.MAX_VALUE);
                }
            }

            @Override
            public void onNext(ByteBuffer item) {}

            @Override
            public void onError(Throwable error) {}

            @Override
            public void onComplete() {
                taken.countDown();
            }
        });
        return taken;
    }

    /** Whether {@code call} is cancelled within a second: the timeout's error is signalled first (L2), then the call cancelled. */
    private static boolean awaitCancelled(CompletableFuture<?> call) throws Exception {
        call.handle((value, error) -> null).get(1, TimeUnit.SECONDS);
        return call.isCancelled();
    }

    /** A call watched by a deadline: the SDK's call (completed by the test), the body given to it, the answer. */
    private record Watched(
            CompletableFuture<String> call,
            AtomicReference<AsyncRequestBody> given,
            CompletableFuture<String> answer) {}

    private static Watched watched(AsyncRequestBody body, Duration timeout) {
        CompletableFuture<String> call = new CompletableFuture<>();
        AtomicReference<AsyncRequestBody> given = new AtomicReference<>();
        CompletableFuture<String> answer = AnswerDeadline.watch(
                sent -> {
                    given.set(sent);
                    return call;
                },
                body,
                timeout,
                () -> TIMED_OUT);
        return new Watched(call, given, answer);
    }

    @Test
    void theClockCountsOnlyTheSilenceAfterTheWholeBody_L1() throws Exception {
        Watched watched = watched(AsyncRequestBody.fromString("part"), Duration.ofMillis(100));
        CompletableFuture<String> call = watched.call();
        AtomicReference<AsyncRequestBody> given = watched.given();
        CompletableFuture<String> answer = watched.answer();

        send(given.get(), false); // a send that takes its time: nothing taken yet
        Thread.sleep(300);
        assertFalse(answer.isDone(), "a slow send is not cut short");
        assertTrue(send(given.get(), true).await(1, TimeUnit.SECONDS)); // a retry sends it whole

        ExecutionException failure = assertThrows(ExecutionException.class, () -> answer.get(5, TimeUnit.SECONDS));
        assertEquals(TIMED_OUT, failure.getCause());
        assertTrue(awaitCancelled(call), "the SDK's call is cancelled, which closes its connection");
    }

    @Test
    void theClockStartsAtTheByteThatCompletesTheLengthWithoutOnComplete_L1() throws Exception {
        // The Netty client cancels a body once it has written its declared length; onComplete may never come.
        AsyncRequestBody withoutOnComplete = new AsyncRequestBody() {
            @Override
            public java.util.Optional<Long> contentLength() {
                return java.util.Optional.of(4L);
            }

            @Override
            public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
                subscriber.onSubscribe(new Subscription() {
                    private boolean sent;

                    @Override
                    public void request(long n) {
                        if (!sent) {
                            sent = true;
                            subscriber.onNext(ByteBuffer.wrap(new byte[] {1, 2}));
                            subscriber.onNext(ByteBuffer.wrap(new byte[] {3, 4}));
                        }
                    }

                    @Override
                    public void cancel() {}
                });
            }
        };
        Watched watched = watched(withoutOnComplete, Duration.ofMillis(100));
        CompletableFuture<String> call = watched.call();
        AtomicReference<AsyncRequestBody> given = watched.given();
        CompletableFuture<String> answer = watched.answer();

        send(given.get(), true);

        ExecutionException failure = assertThrows(ExecutionException.class, () -> answer.get(5, TimeUnit.SECONDS));
        assertEquals(TIMED_OUT, failure.getCause());
        assertTrue(awaitCancelled(call));
    }

    @Test
    void aRetrySendingTheBodyAgainStopsTheClockUntilItHasTheWholeBody_L1() throws Exception {
        Watched watched = watched(AsyncRequestBody.fromString("part"), Duration.ofMillis(200));
        CompletableFuture<String> call = watched.call();
        AtomicReference<AsyncRequestBody> given = watched.given();
        CompletableFuture<String> answer = watched.answer();
        send(given.get(), true); // the clock runs
        Thread.sleep(100);

        send(given.get(), false); // a retry starts sending: the clock stops
        Thread.sleep(400);
        assertFalse(answer.isDone(), "the silence before the retry does not count against it");
        call.complete("answered");

        assertEquals("answered", answer.get(1, TimeUnit.SECONDS));
    }

    @Test
    void aClientThatKeepsTheBodyAfterTheCallDoesNotKeepItsBytes_L4() throws Exception {
        // The SDK's Netty client keeps the last request of an idle pooled connection, its body included.
        AsyncRequestBody part = AsyncRequestBody.fromByteBuffersUnsafe(ByteBuffer.allocate(1024));
        WeakReference<AsyncRequestBody> partGone = new WeakReference<>(part);
        Watched watched = watched(part, Duration.ofSeconds(5));
        CompletableFuture<String> call = watched.call();
        AtomicReference<AsyncRequestBody> kept = watched.given();
        CompletableFuture<String> answer = watched.answer();
        part = null;
        assertTrue(send(kept.get(), true).await(1, TimeUnit.SECONDS));
        call.complete("etag");
        assertEquals("etag", answer.get(1, TimeUnit.SECONDS));

        for (int i = 0; i < 50 && partGone.get() != null; i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertEquals(null, partGone.get(), "the ended call's body is unreachable though the client keeps it");
        AtomicReference<Throwable> resent = new AtomicReference<>();
        kept.get().subscribe(new Subscriber<ByteBuffer>() {
            @Override
            public void onSubscribe(Subscription subscription) {}

            @Override
            public void onNext(ByteBuffer item) {
                resent.set(new AssertionError("a byte after the call ended"));
            }

            @Override
            public void onError(Throwable error) {
                resent.compareAndSet(null, error);
            }

            @Override
            public void onComplete() {
                resent.set(new AssertionError("completed after the call ended"));
            }
        });
        assertTrue(
                resent.get() instanceof IllegalStateException, "a send after the call fails (§1.9): " + resent.get());
    }

    @Test
    void anAnswerInTimeWinsAndTheClockIsStopped_L2() throws Exception {
        CompletableFuture<String> call = new CompletableFuture<>();
        CompletableFuture<String> answer = AnswerDeadline.watch(() -> call, Duration.ofMillis(100), () -> TIMED_OUT);
        call.complete("answered");
        Thread.sleep(300);

        assertEquals("answered", answer.get());
        assertFalse(call.isCancelled());
    }

    @Test
    void aCallWithoutABodyIsTimedFromItsStartAndItsErrorOnASluiceThread_L3() throws Exception {
        CompletableFuture<String> call = new CompletableFuture<>();
        AtomicReference<String> thread = new AtomicReference<>();
        CompletableFuture<String> answer = AnswerDeadline.watch(() -> call, Duration.ofMillis(100), () -> TIMED_OUT);
        CompletableFuture<Void> signalled = answer.handle((value, error) -> {
            thread.set(Thread.currentThread().getName());
            return null;
        });

        signalled.get(5, TimeUnit.SECONDS);
        assertTrue(answer.isCompletedExceptionally());
        assertTrue(thread.get().startsWith("sluice-timeout"), thread.get());
        assertTrue(awaitCancelled(call));
    }
}
