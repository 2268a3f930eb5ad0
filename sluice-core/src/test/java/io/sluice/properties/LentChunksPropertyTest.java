package io.sluice.properties;

import io.sluice.ChunkPool;
import io.sluice.ReactiveFile;
import io.sluice.ReadOptions;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The give-back contract of lent chunks, attacked: for any file size around chunk multiples, any
 * chunk and pool size, any executor, and per chunk any holder's behaviour (give back at once, hold
 * it to the end and give it back late, never give it back, give it back twice, give back a view of
 * it or a stranger's buffer), with a cancel at any point and several readers sharing one pool:
 * every chunk holds exactly its bytes when it arrives, a chunk still held is never overwritten,
 * misuse is refused with {@link IllegalArgumentException} and harms no one, and the pool never holds
 * more direct buffers than its bound.
 */
class LentChunksPropertyTest {

    /** What a holder does with one chunk. */
    enum Action {
        PROMPT,
        HOLD,
        NEVER,
        TWICE,
        VIEW,
        STRANGER
    }

    @Provide
    Arbitrary<List<Action>> actions() {
        return Arbitraries.frequencyOf(
                        Tuple.of(6, Arbitraries.just(Action.PROMPT)),
                        Tuple.of(3, Arbitraries.just(Action.HOLD)),
                        Tuple.of(1, Arbitraries.just(Action.NEVER)),
                        Tuple.of(1, Arbitraries.just(Action.TWICE)),
                        Tuple.of(1, Arbitraries.just(Action.VIEW)),
                        Tuple.of(1, Arbitraries.just(Action.STRANGER)))
                .list()
                .ofMinSize(1)
                .ofMaxSize(12);
    }

    @Provide
    Arbitrary<Integer> chunkSizes() {
        return Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.integers().between(1, 64)),
                Tuple.of(2, Arbitraries.of(4096, 65536)),
                Tuple.of(1, Arbitraries.integers().between(65, 20_000)));
    }

    @Provide
    Arbitrary<ExecutorKind> executors() {
        return Arbitraries.of(ExecutorKind.available());
    }

    @Property(tries = 250, edgeCases = EdgeCasesMode.NONE)
    void heldChunksKeepTheirBytesAndMisuseIsRefused(
            @ForAll("chunkSizes") int chunk,
            @ForAll @IntRange(min = 0, max = 40) int multiple,
            @ForAll @IntRange(min = -1, max = 1) int delta,
            @ForAll @IntRange(min = 1, max = 6) int poolChunks,
            @ForAll("actions") List<Action> actions,
            @ForAll @IntRange(min = -1, max = 30) int cancelAfter,
            @ForAll @IntRange(min = 1, max = 3) int readers,
            @ForAll("executors") ExecutorKind executorKind)
            throws Exception {
        int size = Math.max(0, multiple * chunk + delta);
        Path directory = Files.createTempDirectory("sluice-props-lent");
        Executor executor = executorKind.create();
        ChunkPool pool = ChunkPool.create(chunk, poolChunks);
        try {
            byte[] file = new byte[size];
            new Random(size * 31L + chunk).nextBytes(file);
            Path path = Files.write(directory.resolve("source"), file);
            ReadOptions options = ReadOptions.defaults().withLentChunks(pool);
            if (executor != null) {
                options = options.withExecutor(executor);
            }
            List<Holder> holders = new ArrayList<>();
            for (int r = 0; r < readers; r++) {
                Holder holder = new Holder(pool, file, actions, r == 0 ? cancelAfter : -1, r);
                holders.add(holder);
                ReactiveFile.of(path).read(options).subscribe(holder);
            }
            for (Holder holder : holders) {
                assertTrue(holder.settled.await(30, TimeUnit.SECONDS), "no terminal signal and no cancel");
            }
            for (Holder holder : holders) {
                assertEquals(List.of(), holder.problems, "reader " + holder.index);
                assertTrue(holder.cancelled || holder.completed, "reader " + holder.index + " failed: " + holder.error);
                if (holder.completed) {
                    assertEquals(size, holder.offset, "bytes delivered to reader " + holder.index);
                }
                holder.checkHeldAndGiveBack(); // late, after the read ended
                assertEquals(List.of(), holder.problems, "reader " + holder.index + " after the end");
            }
            assertTrue(
                    holders.stream().allMatch(holder -> holder.peakAllocated <= poolChunks),
                    "more direct buffers than the pool's " + poolChunks);
            assertTrue(pool.allocatedChunks() <= poolChunks, pool.toString());
            Statistics.label("actions")
                    .collect(
                            actions.contains(Action.HOLD) ? "holds" : "no hold",
                            pool.overflowed() > 0 ? "overflowed" : "within pool");
        } finally {
            ExecutorKind.quiesce(executor);
            Files.deleteIfExists(directory.resolve("source"));
            Files.deleteIfExists(directory);
        }
    }

    @Property(tries = 40, edgeCases = EdgeCasesMode.NONE)
    void aWriteGivesBackEveryChunkItRead(
            @ForAll("chunkSizes") int chunk,
            @ForAll @IntRange(min = 0, max = 60) int multiple,
            @ForAll @IntRange(min = 1, max = 6) int poolChunks,
            @ForAll @Size(max = 1) List<@IntRange(min = 0, max = 20) Integer> cancelAtChunk)
            throws Exception {
        Path directory = Files.createTempDirectory("sluice-props-lent-copy");
        ChunkPool pool = ChunkPool.create(chunk, poolChunks);
        ExecutorService reads = Executors.newSingleThreadExecutor();
        try {
            byte[] file = new byte[multiple * chunk + 1];
            new Random(multiple * 17L + chunk).nextBytes(file);
            Path source = Files.write(directory.resolve("source"), file);
            Path target = directory.resolve("target");
            CompletableFuture<Long> write = ReactiveFile.of(target)
                    .write(ReactiveFile.of(source)
                            .read(ReadOptions.defaults().withLentChunks(pool).withExecutor(reads)))
                    .toCompletableFuture();
            if (!cancelAtChunk.isEmpty()) {
                write.cancel(false);
            }
            try {
                assertEquals(file.length, write.get(30, TimeUnit.SECONDS));
                assertArrayEquals(file, Files.readAllBytes(target));
                assertEquals(pool.allocatedChunks(), pool.idleChunks(), "chunks not given back: " + pool);
            } catch (java.util.concurrent.CancellationException cancelled) {
                // The read may still be lending chunks (the cancel reaches it from the write's drain,
                // later): once its executor has quiesced it lends no more, and the counts can only
                // move towards equal, as the ended write gives back what it was sent.
                reads.shutdown();
                assertTrue(reads.awaitTermination(30, TimeUnit.SECONDS), "the read never stopped");
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (pool.allocatedChunks() != pool.idleChunks() && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
                assertEquals(
                        pool.allocatedChunks(), pool.idleChunks(), "chunks not given back after a cancel: " + pool);
            }
            assertTrue(pool.allocatedChunks() <= poolChunks, pool.toString());
        } finally {
            reads.shutdownNow();
            for (String name : new String[] {"source", "target", ""}) {
                Files.deleteIfExists(directory.resolve(name));
            }
        }
    }

    /** Requests one chunk at a time and treats each as its action says. */
    static final class Holder implements Subscriber<ByteBuffer> {
        final ChunkPool pool;
        final byte[] file;
        final List<Action> actions;
        final int cancelAfter;
        final int index;
        final CountDownLatch settled = new CountDownLatch(1);
        final List<String> problems = new ArrayList<>(); // touched by signals only (§1.3), read after settled
        final List<ByteBuffer> held = new ArrayList<>();
        final List<byte[]> heldExpected = new ArrayList<>();
        Subscription subscription;
        int received;
        int offset;
        int peakAllocated;
        volatile boolean completed;
        volatile boolean cancelled;
        volatile Throwable error;

        Holder(ChunkPool pool, byte[] file, List<Action> actions, int cancelAfter, int index) {
            this.pool = pool;
            this.file = file;
            this.actions = actions;
            this.cancelAfter = cancelAfter;
            this.index = index;
        }

        @Override
        public void onSubscribe(Subscription subscription) {
            this.subscription = subscription;
            if (cancelAfter == 0) {
                cancelled = true;
                subscription.cancel();
                settled.countDown();
                return;
            }
            subscription.request(1);
        }

        @Override
        public void onNext(ByteBuffer chunk) {
            peakAllocated = Math.max(peakAllocated, pool.allocatedChunks());
            byte[] expected = Arrays.copyOfRange(file, offset, Math.min(file.length, offset + chunk.remaining()));
            byte[] got = new byte[chunk.remaining()];
            chunk.duplicate().get(got);
            if (!Arrays.equals(expected, got)) {
                problems.add("chunk " + received + " at byte " + offset + " arrived with other bytes");
            }
            if (!ChunkPool.isLent(chunk)) {
                problems.add("chunk " + received + " is not out on loan");
            }
            offset += chunk.remaining();
            Action action = actions.get(received % actions.size());
            received++;
            try {
                act(action, chunk, expected);
            } catch (Throwable t) {
                problems.add(action + ": " + t);
            }
            if (received == cancelAfter) {
                cancelled = true;
                subscription.cancel();
                settled.countDown();
                return;
            }
            subscription.request(1);
        }

        private void act(Action action, ByteBuffer chunk, byte[] expected) {
            switch (action) {
                case PROMPT:
                    chunk.position(chunk.limit()); // a consumer may move it; giving back still works
                    ChunkPool.giveBack(chunk);
                    break;
                case HOLD:
                    held.add(chunk);
                    heldExpected.add(expected);
                    break;
                case NEVER:
                    break;
                case TWICE:
                    ChunkPool.giveBack(chunk);
                    assertThrows(IllegalArgumentException.class, () -> ChunkPool.giveBack(chunk));
                    break;
                case VIEW:
                    assertThrows(IllegalArgumentException.class, () -> ChunkPool.giveBack(chunk.slice()));
                    held.add(chunk); // the chunk itself is still held
                    heldExpected.add(expected);
                    break;
                case STRANGER:
                    assertThrows(
                            IllegalArgumentException.class,
                            () -> ChunkPool.giveBack(ByteBuffer.allocateDirect(Math.max(1, chunk.capacity()))));
                    assertThrows(IllegalArgumentException.class, () -> ChunkPool.giveBack(ByteBuffer.wrap(expected)));
                    ChunkPool.giveBack(chunk);
                    break;
                default:
                    throw new AssertionError(action);
            }
        }

        /** Nothing held was overwritten; then each goes back, late. */
        void checkHeldAndGiveBack() {
            for (int i = 0; i < held.size(); i++) {
                ByteBuffer chunk = held.get(i);
                byte[] now = new byte[heldExpected.get(i).length];
                chunk.duplicate().rewind().get(now);
                if (!Arrays.equals(heldExpected.get(i), now)) {
                    problems.add("held chunk " + i + " was overwritten while held");
                }
                ChunkPool.giveBack(chunk);
            }
            held.clear();
        }

        @Override
        public void onError(Throwable error) {
            this.error = error;
            settled.countDown();
        }

        @Override
        public void onComplete() {
            completed = true;
            settled.countDown();
        }
    }
}
