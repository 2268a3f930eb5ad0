package io.sluice.internal.read;

import io.sluice.internal.SerialDrain;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.io.Closeable;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BooleanSupplier;

/**
 * One subscriber's read: opens the source on the first request, reads only against demand, emits
 * each chunk as soon as its source has one (R10) and signals from its drain. It is its own
 * {@link SerialDrain} (the subscription and its drain are one object per read); its drain methods
 * are for the library only, and a subscriber sees a {@link Subscription}.
 *
 * <p>Invariants:
 * <ul>
 *   <li>R1 (§1.3): no signal before {@code onSubscribe} returns: the drain is held until then.</li>
 *   <li>R2 (§1.1): {@code onNext} is sent only while {@code requested > 0}; one read per chunk
 *       requested, never read-ahead.</li>
 *   <li>R3: nothing is opened before the first {@code request(n)}; the open happens on the
 *       executor, and its failure arrives as {@code onError} (§1.4, §1.9).</li>
 *   <li>R4 (§3.5, §3.7): {@code cancel} is idempotent; the drain closes the source on its next
 *       pass, scheduled at once; {@code cancel} itself drops the subscriber (§3.13). A single-use
 *       source never opened is closed too: the library owns the user's channel or stream.</li>
 *   <li>R5 (§1.7): after {@code onComplete} or {@code onError} nothing more is signalled, and the
 *       source is closed before the terminal signal.</li>
 *   <li>R6 (§3.9): {@code request(n <= 0)} ends the subscription with
 *       {@link IllegalArgumentException}.</li>
 *   <li>R7 (§3.17): demand adds up to {@code Long.MAX_VALUE}, which then means unbounded.</li>
 *   <li>R8 (§1.4, §1.9): an opener that is also a {@link ReadSource.Check} has its check run on
 *       the first pass, scheduled right after {@code onSubscribe} returns; if it fails,
 *       {@code onError} follows with no request needed, and nothing was opened.</li>
 *   <li>R9 (§3.5, §1.8): {@code cancel} also calls the open source's {@link ReadSource#abort()}
 *       from the cancelling thread, so a read blocked on a silent peer (a socket, a pipe) ends at
 *       once; no error is signalled after a cancel, that read's included.</li>
 *   <li>R10: a chunk is emitted as soon as its fill ends: for a source that
 *       {@linkplain ReadSource#fillsChunks() fills chunks} (a file) when it is full or the source
 *       ends, so all chunks are full but the last; for any other source (a pipe, socket, stream)
 *       after each read that returned bytes, so a peer waiting for an answer is never kept waiting
 *       for bytes that it has not sent. No chunk is empty, none is longer than the chunk size.</li>
 *   <li>R11: a chunk is the subscriber's from {@code onNext} on (lent chunks: until given back);
 *       one that a failed, cancelled or empty read leaves unsent returns to its
 *       {@link ReadBuffers} at once, so a lent chunk is never lost to a read that ends.</li>
 * </ul>
 */
final class ReadSubscription extends SerialDrain implements Subscription, BooleanSupplier {

    private static final long YIELD_AFTER_BYTES = 1024 * 1024;
    private static final int YIELD_AFTER_CHUNKS = 64;
    private static final System.Logger LOG = System.getLogger(ReadSubscription.class.getName());
    private static final VarHandle REQUESTED; // a field, not an AtomicLong: one object less per read

    static {
        try {
            REQUESTED = MethodHandles.lookup().findVarHandle(ReadSubscription.class, "requested", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ReadSource.Opener opener; // called by the drain (R3), and its check if it is one (R8)
    private final Closeable unopened; // closed by the drain if never opened (R4); null: none
    private final ReadBuffers chunks; // used by the drain only

    private volatile long requested; // any thread adds (R7) -> drain, which takes (R2); through REQUESTED
    private volatile boolean cancelled; // any thread -> drain
    private volatile long invalidRequest; // any thread -> drain (R6); 0: none

    private volatile Subscriber<? super ByteBuffer> downstream; // cancel() and drain clear (§3.13) -> start(), drain
    private volatile ReadSource source; // drain, once, at the open -> drain, cancel() (R9); null: not open
    private boolean done; // drain-confined
    private boolean checked; // drain-confined

    /**
     * Creates the read on the subscribing thread, its drain held until {@link #start()}.
     *
     * @param unopened the user's channel or stream behind a single-use source, which the opener
     *     wraps; closed if the read ends before opening it. {@code null} for sources the opener
     *     creates (nothing exists to close before the open)
     */
    ReadSubscription(
            Subscriber<? super ByteBuffer> downstream,
            ReadSource.Opener opener,
            Closeable unopened,
            ChunkSupply supply,
            Executor executor) {
        super(executor, true); // R1: held until start()
        this.downstream = downstream;
        this.opener = opener;
        this.unopened = unopened;
        this.chunks = supply.newBuffers();
    }

    /** Sends {@code onSubscribe} on the subscribing thread, then lets the drain run (R1). */
    void start() {
        try {
            downstream.onSubscribe(this);
        } catch (Throwable t) { // §2.13 violated by the subscriber: treat as cancelled
            cancelled = true;
            downstream = null; // §3.13
            signal(); // R4: a pass closes a single-use source never opened, as cancel() has one do
            LOG.log(System.Logger.Level.WARNING, "§2.13: onSubscribe threw; subscription cancelled", t);
        }
        if (opener instanceof ReadSource.Check) {
            signal(); // R8: the check's pass runs without waiting for demand
        }
        release();
    }

    @Override
    public void request(long n) {
        if (n <= 0) {
            invalidRequest = n == 0 ? Long.MIN_VALUE : n; // R6; MIN_VALUE stands for 0
        } else {
            long current;
            long sum;
            do { // R7
                current = requested;
                sum = current + n < 0 ? Long.MAX_VALUE : current + n;
            } while (!REQUESTED.compareAndSet(this, current, sum));
        }
        signal();
    }

    @Override
    public void cancel() {
        cancelled = true; // R4
        downstream = null; // §3.13, at once: a pass that reads null stops without a signal
        ReadSource open = source; // read after the write above; open() writes, then reads `cancelled`
        if (open != null) {
            open.abort(); // R9
        }
        signal();
    }

    /** Whether the read was cancelled: what the opener's source asks while it waits (any thread). */
    @Override
    public boolean getAsBoolean() {
        return cancelled;
    }

    /** A drain pass (called by {@link SerialDrain} only). */
    @Override
    protected boolean pass() {
        if (done) {
            return false;
        }
        if (cancelled) {
            finish(null, false);
            return false;
        }
        if (!checked) {
            checked = true;
            if (opener instanceof ReadSource.Check check && !passesCheck(check)) {
                return false;
            }
        }
        long invalid = invalidRequest;
        if (invalid != 0) {
            finish(
                    new IllegalArgumentException(
                            "§3.9: request(n) must be positive, was " + (invalid == Long.MIN_VALUE ? 0 : invalid)),
                    true);
            return false;
        }
        if (requested == 0) {
            return false;
        }
        if (source == null && !open()) {
            return false;
        }
        ReadSource from = source; // read once for the loop: only this drain writes it, once
        long bytesThisPass = 0;
        int chunksThisPass = 0;
        while (requested > 0) {
            if (cancelled || invalidRequest != 0) {
                return true; // handled at the top of the next pass
            }
            ByteBuffer chunk = null;
            boolean ended;
            try {
                chunk = chunks.forRead(from.remaining());
                ended = fill(from, chunk);
            } catch (Throwable t) {
                if (chunk != null) {
                    chunks.unused(chunk); // R11
                }
                finish(t, !cancelled); // R9: an aborted read's exception is not signalled
                return false;
            }
            if (cancelled) {
                chunks.unused(chunk); // R11
                finish(null, false);
                return false;
            }
            chunk = chunks.toEmit(chunk); // null: nothing read (R10)
            if (chunk != null) {
                if (requested != Long.MAX_VALUE) {
                    REQUESTED.getAndAdd(this, -1L); // R2
                }
                if (!emit(chunk)) {
                    return false;
                }
                bytesThisPass += chunk.remaining();
                chunksThisPass++;
            }
            if (ended || from.remaining() == 0) {
                finish(null, true);
                return false;
            }
            if (bytesThisPass >= YIELD_AFTER_BYTES || chunksThisPass >= YIELD_AFTER_CHUNKS) {
                return true; // fairness: let others run
            }
        }
        return false;
    }

    private boolean passesCheck(ReadSource.Check check) {
        try {
            check.check();
            return true;
        } catch (Throwable t) {
            finish(t, true); // R8
            return false;
        }
    }

    private boolean open() {
        try {
            source = opener.open(this); // getAsBoolean(): cancelled; R9: published before the loop reads `cancelled`
            return true;
        } catch (Throwable t) {
            finish(t, !cancelled); // R3
            return false;
        }
    }

    /**
     * Reads into the chunk until it is full, the source ends, or (R10) a read of a source that does
     * not fill chunks returned bytes; returns whether the source ended.
     */
    private boolean fill(ReadSource from, ByteBuffer chunk) throws java.io.IOException {
        boolean fills = from.fillsChunks();
        while (chunk.hasRemaining()) {
            if (cancelled) {
                return false;
            }
            int n = from.read(chunk);
            if (n < 0) {
                return true;
            }
            if (n > 0 && !fills) {
                return false; // R10: emit what the peer sent
            }
        }
        return false;
    }

    private boolean emit(ByteBuffer chunk) {
        Subscriber<? super ByteBuffer> subscriber = downstream;
        if (subscriber == null) { // cancelled meanwhile (§3.13 dropped it)
            chunks.unused(chunk); // R11
            finish(null, false);
            return false;
        }
        try {
            subscriber.onNext(chunk);
            return true;
        } catch (Throwable t) { // §2.13 violated by the subscriber: cancel, report here
            LOG.log(System.Logger.Level.WARNING, "§2.13: onNext threw; subscription cancelled", t);
            finish(null, false);
            return false;
        }
    }

    /**
     * Ends the subscription (R5): closes the source, then signals {@code onComplete} (error null)
     * or {@code onError}, unless {@code signal} is false (cancelled).
     */
    private void finish(Throwable error, boolean signal) {
        done = true;
        Subscriber<? super ByteBuffer> subscriber = downstream;
        downstream = null; // §3.13
        Closeable owned = source != null ? source : unopened; // R4: a never-opened user source too
        if (owned != null) {
            try {
                owned.close();
            } catch (Throwable closeError) {
                if (error != null) {
                    error.addSuppressed(closeError);
                } else if (signal) {
                    error = closeError;
                }
            }
        }
        if (!signal || subscriber == null) {
            return;
        }
        try {
            if (error == null) {
                subscriber.onComplete();
            } else {
                subscriber.onError(error);
            }
        } catch (Throwable t) {
            LOG.log(System.Logger.Level.WARNING, "§2.13: terminal signal threw", t);
        }
    }

    /** The drain's failure: its executor refused it, or a pass threw (called by {@link SerialDrain} only). */
    @Override
    protected void passFailed(Throwable error) {
        if (!done) {
            finish(
                    error instanceof RejectedExecutionException
                            ? new RejectedExecutionException(
                                    "read executor rejected the read: " + error.getMessage(), error)
                            : error,
                    !cancelled);
        }
    }
}
