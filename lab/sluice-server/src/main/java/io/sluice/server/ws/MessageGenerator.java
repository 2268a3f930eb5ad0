package io.sluice.server.ws;

import java.nio.ByteBuffer;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The shared generator: one thread makes every client's messages, as its client requests them,
 * in turns of at most {@link #TURN_MESSAGES} per client (the seed's batches of 5,000), optionally
 * paced to a total rate. Each {@link #publisher()} subscription is one client's stream, numbered
 * from 0; a client that requests nothing gets nothing made, so what a slow client costs depends
 * only on what its subscriber requests.
 *
 * <p><b>Threading.</b> The generator thread makes every {@code onNext} and {@code onError}; a
 * stream is in the ready queue at most once ({@code scheduled}), so its signals are serial (§1.3).
 * {@code request} and {@code cancel} may come from any thread. A stream is scheduled only after
 * its {@code onSubscribe} returned, so no {@code onNext} overlaps it (§1.3).
 *
 * <p><b>Resources.</b> {@link #close()} stops the thread; a cancelled stream leaves
 * {@link #activeStreams()} at once and is dropped the next time the thread meets it.
 */
public final class MessageGenerator implements AutoCloseable {

    /** The most messages one client gets in one turn before the next ready client is served. */
    public static final int TURN_MESSAGES = 5_000;
    /** How far a paced generator may fall behind its rate and catch up at full speed; beyond it, the lag is forgiven. */
    static final long MAX_CATCH_UP_NANOS = 10_000_000;

    private final BlockingQueue<ClientStream> ready = new LinkedBlockingQueue<>(); // any thread -> generator
    private final Set<ClientStream> streams = ConcurrentHashMap.newKeySet(); // subscribed and not cancelled
    private final double messagesPerSecond; // 0: as fast as the thread goes
    private final Thread thread;
    private volatile boolean closed; // close() -> generator
    private volatile long generated; // written by the generator thread only
    private long startNanos; // generator-confined: the pacing's origin, moved on after idle time

    private MessageGenerator(double messagesPerSecond, String name) {
        this.messagesPerSecond = messagesPerSecond;
        this.thread = new Thread(this::run, name);
        this.thread.setDaemon(true);
    }

    /**
     * Starts a generator thread.
     *
     * @param messagesPerSecond the total rate over all clients, or 0 for no pacing
     * @param name the thread's name
     */
    public static MessageGenerator start(double messagesPerSecond, String name) {
        if (!(messagesPerSecond >= 0)) {
            throw new IllegalArgumentException("messagesPerSecond must be 0 or more, was " + messagesPerSecond);
        }
        MessageGenerator generator = new MessageGenerator(messagesPerSecond, name);
        generator.thread.start();
        return generator;
    }

    /** A publisher of one new client stream per subscription, from sequence 0. */
    public Flow.Publisher<ByteBuffer> publisher() {
        return subscriber -> {
            ClientStream stream = new ClientStream(subscriber);
            streams.add(stream);
            subscriber.onSubscribe(stream);
            stream.started = true;
            stream.scheduleIfWanted();
        };
    }

    /** Streams subscribed and not cancelled. */
    public int activeStreams() {
        return streams.size();
    }

    /** Messages made so far, over all streams. */
    public long generated() {
        return generated;
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        thread.interrupt();
        thread.join(TimeUnit.SECONDS.toMillis(10));
        streams.clear();
    }

    private void run() {
        startNanos = System.nanoTime();
        while (!closed) {
            ClientStream stream;
            try {
                stream = ready.take();
            } catch (InterruptedException e) {
                return; // close()
            }
            serve(stream);
        }
    }

    /** One turn of one stream: at most {@link #TURN_MESSAGES}, then back in line if it wants more. */
    private void serve(ClientStream stream) {
        Flow.Subscriber<? super ByteBuffer> subscriber = stream.subscriber;
        if (subscriber != null && stream.invalidRequest != null) {
            stream.cancel();
            subscriber.onError(stream.invalidRequest); // §3.9
            return;
        }
        int made = 0;
        while (subscriber != null && made < TURN_MESSAGES && !stream.cancelled && stream.takeOne()) {
            subscriber.onNext(Message.encode(stream.nextSequence++, Message.nowEpochNanos()));
            made++;
        }
        generated += made;
        stream.scheduled.set(false);
        stream.scheduleIfWanted(); // a request that came while it was scheduled found scheduled set
        pace();
    }

    /** Holds the thread back while it is ahead of the configured rate. */
    private void pace() {
        if (messagesPerSecond == 0) {
            return;
        }
        long dueNanos = startNanos + (long) (generated / messagesPerSecond * 1e9);
        long aheadNanos = dueNanos - System.nanoTime();
        if (aheadNanos > 0) {
            LockSupport.parkNanos(aheadNanos);
        } else if (-aheadNanos > MAX_CATCH_UP_NANOS) {
            startNanos += -aheadNanos - MAX_CATCH_UP_NANOS; // idle time (no demand) is no credit for a burst
        }
    }

    /** One client's stream: its demand, its position, and its place in the ready queue. */
    private final class ClientStream implements Flow.Subscription {
        private volatile Flow.Subscriber<? super ByteBuffer> subscriber; // null once cancelled (§3.13)
        private final AtomicLong demand = new AtomicLong(); // any thread adds, generator takes
        private final AtomicBoolean scheduled = new AtomicBoolean(); // true while in the ready queue or served
        private volatile boolean started; // set once onSubscribe returned
        private volatile boolean cancelled; // any thread -> generator
        private volatile IllegalArgumentException invalidRequest; // any thread -> generator (§3.9)
        private long nextSequence; // generator-confined

        ClientStream(Flow.Subscriber<? super ByteBuffer> subscriber) {
            this.subscriber = subscriber;
        }

        @Override
        public void request(long n) {
            if (n <= 0) {
                invalidRequest = new IllegalArgumentException("§3.9: request(" + n + ") must be positive");
            } else {
                demand.accumulateAndGet(n, (current, added) -> current + added < 0 ? Long.MAX_VALUE : current + added);
            }
            scheduleIfWanted();
        }

        @Override
        public void cancel() {
            cancelled = true;
            subscriber = null; // §3.13
            streams.remove(this);
        }

        boolean takeOne() {
            return demand.getAndUpdate(current -> current == Long.MAX_VALUE ? current : Math.max(0, current - 1)) > 0;
        }

        void scheduleIfWanted() {
            boolean wanted = demand.get() > 0 || invalidRequest != null;
            if (started && !cancelled && wanted && scheduled.compareAndSet(false, true)) {
                ready.add(this);
            }
        }
    }
}
