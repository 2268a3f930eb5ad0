package io.sluice.s3;

import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A publisher the test drives: generated items of {@code chunk} bytes, emitted against demand but
 * only up to the bytes {@link #allow allowed} so far; {@link #complete()} and {@link #fail} end it
 * once every allowed byte is out, so that a test's byte counts do not depend on timing.
 */
final class ManualPublisher implements Publisher<ByteBuffer> {

    private final int chunk;
    private final CountDownLatch cancelledLatch = new CountDownLatch(1);
    private Subscriber<? super ByteBuffer> subscriber; // guarded by this
    private long requested; // guarded by this
    private long allowed; // guarded by this
    private long position; // guarded by this
    private boolean emitting; // guarded by this
    private boolean done; // guarded by this
    private boolean ending; // guarded by this: complete or fail once drained
    private Throwable endError; // guarded by this: null to complete
    private volatile boolean cancelled;

    ManualPublisher(int chunk) {
        this.chunk = chunk;
    }

    @Override
    public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
        synchronized (this) {
            this.subscriber = subscriber;
        }
        subscriber.onSubscribe(new Subscription() {
            @Override
            public void request(long n) {
                synchronized (ManualPublisher.this) {
                    requested += n;
                }
                emit();
            }

            @Override
            public void cancel() {
                synchronized (ManualPublisher.this) {
                    done = true;
                }
                cancelled = true;
                cancelledLatch.countDown();
            }
        });
    }

    /** Lets {@code bytes} more bytes out, as demand allows. */
    void allow(long bytes) {
        synchronized (this) {
            allowed += bytes;
        }
        emit();
    }

    /** The bytes emitted so far. */
    synchronized long emitted() {
        return position;
    }

    synchronized long requested() {
        return requested;
    }

    /** Completes once every allowed byte has been emitted (which takes demand). */
    void complete() {
        end(null);
    }

    /** Fails once every allowed byte has been emitted (which takes demand). */
    void fail(Throwable error) {
        end(error);
    }

    private void end(Throwable error) {
        synchronized (this) {
            if (done || ending) {
                return;
            }
            ending = true;
            endError = error;
        }
        emit();
    }

    /** Sends {@code item} as it is, whatever the demand: for protocol violations. */
    void sendRaw(ByteBuffer item) {
        subscriber.onNext(item);
    }

    boolean awaitCancelled(long seconds) throws InterruptedException {
        return cancelledLatch.await(seconds, TimeUnit.SECONDS);
    }

    boolean cancelled() {
        return cancelled;
    }

    private void emit() {
        while (true) {
            ByteBuffer item = null;
            Subscriber<? super ByteBuffer> target;
            Throwable error = null;
            boolean terminal = false;
            synchronized (this) {
                if (emitting || done || subscriber == null) {
                    return; // the emitting thread's loop sees what changed
                }
                target = subscriber;
                if (ending && position >= allowed) {
                    done = true;
                    terminal = true;
                    error = endError;
                } else if (requested == 0 || position >= allowed) {
                    return;
                } else {
                    emitting = true;
                    int count = (int) Math.min(chunk, allowed - position);
                    item = ByteBuffer.allocate(count);
                    for (int i = 0; i < count; i++) {
                        item.put(Bodies.byteAt(position + i));
                    }
                    item.flip();
                    position += count;
                    requested--;
                }
            }
            if (terminal) {
                if (error == null) {
                    target.onComplete();
                } else {
                    target.onError(error);
                }
                return;
            }
            target.onNext(item);
            synchronized (this) {
                emitting = false;
            }
        }
    }
}
