package io.sluice;

import io.sluice.demand.Demand;
import io.sluice.demand.DemandStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * W8: items emitted inside our own request(n) take a drain-local path, items emitted from other
 * threads the concurrent queue; a publisher that mixes both at random must still be written in
 * the order it emitted.
 */
class EmissionOrderTest {

    @TempDir
    Path dir;

    @Test
    void anUpstreamMixingSynchronousAndAsynchronousEmissionIsWrittenInOrder() throws Exception {
        ExecutorService async = Executors.newSingleThreadExecutor();
        try {
            DemandStrategy[] strategies = {Demand.adaptive(), Demand.fixed(8, 2), Demand.oneByOne()};
            for (int seed = 0; seed < 12; seed++) {
                int items = 5_000 + seed * 500;
                Path file = dir.resolve("out" + seed);
                long written = ReactiveFile.of(file)
                        .write(
                                new MixedPublisher(items, seed, async),
                                WriteOptions.defaults().withDemand(strategies[seed % strategies.length]))
                        .toCompletableFuture()
                        .get(60, TimeUnit.SECONDS);
                assertEquals(items * 4L, written);
                ByteBuffer content = ByteBuffer.wrap(Files.readAllBytes(file));
                for (int i = 0; i < items; i++) {
                    assertEquals(i, content.getInt(), "seed " + seed + ": item " + i + " out of order");
                }
            }
        } finally {
            async.shutdownNow();
        }
    }

    /** Emits 4-byte sequence numbers, some inside request(n), some later from another thread. */
    static final class MixedPublisher implements Publisher<ByteBuffer> {
        private final int items;
        private final SplittableRandom random;
        private final ExecutorService async;

        MixedPublisher(int items, long seed, ExecutorService async) {
            this.items = items;
            this.random = new SplittableRandom(seed);
            this.async = async;
        }

        @Override
        public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
            subscriber.onSubscribe(new Subscription() {
                private long demand; // guarded by this
                private int next; // guarded by this
                private boolean done; // guarded by this

                @Override
                public void request(long n) {
                    int now;
                    synchronized (this) {
                        demand += n;
                        now = random.nextInt(3) == 0 ? 0 : (int) Math.min(demand, 1 + random.nextInt(64));
                    }
                    emit(now); // synchronously, inside request
                    async.execute(() -> emit(Integer.MAX_VALUE)); // the rest, from another thread
                }

                /** One emitter at a time (§1.3): the lock also orders the sequence numbers. */
                private synchronized void emit(int most) {
                    for (int i = 0; i < most && demand > 0 && !done; i++) {
                        if (next == items) {
                            done = true;
                            subscriber.onComplete();
                            return;
                        }
                        demand--;
                        ByteBuffer item = ByteBuffer.allocate(4).putInt(0, next++);
                        subscriber.onNext(item);
                    }
                    if (!done && next == items) {
                        done = true;
                        subscriber.onComplete();
                    }
                }

                @Override
                public synchronized void cancel() {
                    done = true;
                }
            });
        }
    }
}
