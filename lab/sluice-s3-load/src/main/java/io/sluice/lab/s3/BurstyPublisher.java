package io.sluice.lab.s3;

import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A slow, bursty source of unknown length: {@code totalBytes} in items of {@link #ITEM_BYTES}
 * (the last one shorter), emitted in bursts of {@link #BURST_ITEMS} items as fast as they are
 * requested, with a pause of {@link #PAUSE_MILLIS} ms between bursts; like a producer that hands
 * over what it has whenever it has some. Each item is a new heap buffer the subscriber may keep (the
 * source keeps no reference), so what the heap holds is what the subscriber keeps. Its bytes repeat
 * one pseudo-random item ({@link #byteAt}). Single use: one subscriber.
 *
 * <p>Threading: every signal to the subscriber comes from the publisher's own thread, which also
 * owns the emission state; {@code request} and {@code cancel} only add demand or set the flag and
 * schedule a pass there, so signals are serial (§1.3) and never reentrant.
 */
final class BurstyPublisher implements Publisher<ByteBuffer> {

    /**
     * Below half a G1 region at the client's heap (1 MiB regions up to a 2 GiB heap): a larger item
     * is a humongous object, whose whole regions count in the heap in use, about twice its size.
     */
    static final int ITEM_BYTES = 256 * 1024;

    static final int BURST_ITEMS = 32; // 8 MiB a burst
    static final long PAUSE_MILLIS = 20;

    private final long totalBytes;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread emitter = new Thread(runnable, "bursty-publisher");
        emitter.setDaemon(true);
        return emitter;
    });
    private final AtomicLong requested = new AtomicLong(); // any thread -> emitter
    private volatile boolean cancelled; // any thread -> emitter
    private Subscriber<? super ByteBuffer> downstream; // emitter only, after subscribe
    private long emittedBytes; // emitter only
    private int leftInBurst = BURST_ITEMS; // emitter only
    private boolean pausing; // emitter only
    private boolean done; // emitter only

    BurstyPublisher(long totalBytes) {
        this.totalBytes = totalBytes;
    }

    private static final byte[] PATTERN = pattern();

    /** The byte at {@code offset} of every bursty source. */
    static byte byteAt(long offset) {
        return PATTERN[(int) (offset % ITEM_BYTES)];
    }

    /** The MD5 of a source of {@code totalBytes}, in hex: the ETag of the object it stores in one piece. */
    static String md5(long totalBytes) {
        try {
            java.security.MessageDigest md5 = java.security.MessageDigest.getInstance("MD5");
            for (long left = totalBytes; left > 0; left -= ITEM_BYTES) {
                md5.update(PATTERN, 0, (int) Math.min(ITEM_BYTES, left));
            }
            return java.util.HexFormat.of().formatHex(md5.digest());
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has MD5", e);
        }
    }

    private static byte[] pattern() {
        byte[] bytes = new byte[ITEM_BYTES];
        new java.util.Random(ITEM_BYTES).nextBytes(bytes);
        return bytes;
    }

    @Override
    public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
        thread.execute(() -> {
            if (downstream != null) {
                subscriber.onSubscribe(new Subscription() {
                    @Override
                    public void request(long n) {}

                    @Override
                    public void cancel() {}
                });
                subscriber.onError(new IllegalStateException("a bursty source has one subscriber"));
                return;
            }
            downstream = subscriber;
            subscriber.onSubscribe(new Subscription() {
                @Override
                public void request(long n) {
                    if (n <= 0) {
                        cancelled = true;
                        thread.execute(
                                () -> fail(new IllegalArgumentException("§3.9: request must be positive, was " + n)));
                        return;
                    }
                    requested.accumulateAndGet(
                            n, (current, more) -> current + more < 0 ? Long.MAX_VALUE : current + more);
                    onEmitter(BurstyPublisher.this::emit);
                }

                @Override
                public void cancel() {
                    cancelled = true;
                    onEmitter(BurstyPublisher.this::end);
                }
            });
            emit();
        });
    }

    /** One pass: emits while there is demand and the burst lasts; at a burst's end, schedules the next. */
    private void emit() {
        while (!done && !cancelled && !pausing && requested.get() > 0) {
            if (emittedBytes == totalBytes) {
                done = true;
                downstream.onComplete();
                end();
                return;
            }
            int length = (int) Math.min(ITEM_BYTES, totalBytes - emittedBytes);
            ByteBuffer item =
                    ByteBuffer.allocate(length).put(PATTERN, 0, length).flip();
            emittedBytes += length;
            requested.decrementAndGet();
            downstream.onNext(item);
            if (--leftInBurst == 0 && emittedBytes < totalBytes) {
                pausing = true;
                thread.schedule(
                        () -> {
                            pausing = false;
                            leftInBurst = BURST_ITEMS;
                            emit();
                        },
                        PAUSE_MILLIS,
                        TimeUnit.MILLISECONDS);
            }
        }
    }

    /** Runs {@code pass} on the emitter, unless the stream has ended (§3.6, §3.7: then a no-op). */
    private void onEmitter(Runnable pass) {
        try {
            thread.execute(pass);
        } catch (java.util.concurrent.RejectedExecutionException ended) {
            // the stream has ended and its thread is gone: nothing to do
        }
    }

    private void fail(Throwable error) {
        if (!done) {
            done = true;
            downstream.onError(error);
        }
        end();
    }

    private void end() {
        done = true;
        thread.shutdown();
    }
}
