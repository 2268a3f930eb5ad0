package io.sluice.s3;

import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A publisher the test drives: generated items of {@code chunk} bytes, emitted against demand but
 * only up to the bytes {@link #allow allowed} so far; {@link #complete()} and {@link #fail} end it.
 */
final class ManualPublisher implements Publisher<ByteBuffer> {

    private final int chunk;
    private final CountDownLatch cancelledLatch = new CountDownLatch(1);
    private Subscriber<? super ByteBuffer> subscriber;   // guarded by this
    private long requested;                              // guarded by this
    private long allowed;                                // guarded by this
    private long position;                               // guarded by this
    private boolean emitting;                            // guarded by this
    private boolean done;                                // guarded by this
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

    void complete() {
        Subscriber<? super ByteBuffer> target;
        synchronized (this) {
            if (done) {
                return;
            }
            done = true;
            target = subscriber;
        }
        target.onComplete();
    }

    void fail(Throwable error) {
        Subscriber<? super ByteBuffer> target;
        synchronized (this) {
            if (done) {
                return;
            }
            done = true;
            target = subscriber;
        }
        target.onError(error);
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
            ByteBuffer item;
            Subscriber<? super ByteBuffer> target;
            synchronized (this) {
                if (emitting || done || requested == 0 || position >= allowed || subscriber == null) {
                    return;
                }
                emitting = true;
                int count = (int) Math.min(chunk, allowed - position);
                item = ByteBuffer.allocate(count);
                for (int i = 0; i < count; i++) {
                    item.put(Bodies.byteAt(position + i));
                }
                item.flip();
                position += count;
                requested--;
                target = subscriber;
            }
            target.onNext(item);
            synchronized (this) {
                emitting = false;
            }
        }
    }
}
