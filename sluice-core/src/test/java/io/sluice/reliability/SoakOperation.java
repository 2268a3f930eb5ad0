package io.sluice.reliability;

import io.sluice.ReactiveFile;
import io.sluice.ReadOptions;
import io.sluice.WriteOptions;
import io.sluice.demand.Demand;
import io.sluice.demand.DemandStrategy;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import reactor.core.publisher.Flux;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One randomly chosen soak operation: a write (plain or atomic, any demand strategy, random item
 * sizes), a read (random chunk size) or a copy (plain or atomic), possibly cancelled at a random
 * moment or fed an injected error. {@link #start()} returns when the operation has ended how it
 * ended; completed writes and copies are verified by SHA-256 on the verifier executor.
 */
final class SoakOperation {

    enum Outcome {
        VERIFIED,
        CANCELLED,
        INJECTED_ERROR
    }

    private static final DemandStrategy[] DEMANDS = {
        Demand.adaptive(), Demand.fixed(16, 4), Demand.fixed(64, 8), Demand.oneByOne(), Demand.unbounded()
    };
    private static final int[] CHUNK_SIZES = {512, 4096, 16 * 1024, 64 * 1024, 1024 * 1024};

    /** A file the soak reads and copies, with its digest. */
    record Source(Path path, String sha256) {}

    private final int id;
    private final Random random;
    private final Path directory;
    private final List<Source> sources;
    private final ScheduledExecutorService canceller;
    private final Executor verifier;
    private CompletableFuture<Void> gate;

    SoakOperation(
            int id,
            long seed,
            Path directory,
            List<Source> sources,
            ScheduledExecutorService canceller,
            Executor verifier) {
        this.id = id;
        this.random = new Random(seed);
        this.directory = directory;
        this.sources = sources;
        this.canceller = canceller;
        this.verifier = verifier;
    }

    /**
     * Starts the operation once {@code gate} completes (so that the driver can put
     * many operations in flight at once). The future completes with the outcome, or exceptionally
     * if the operation went wrong.
     */
    CompletableFuture<Outcome> start(CompletableFuture<Void> gate) {
        this.gate = gate;
        int kind = random.nextInt(10);
        if (kind < 4) {
            return write();
        }
        if (kind < 7) {
            return read();
        }
        return copy();
    }

    private CompletableFuture<Outcome> write() {
        int size = random.nextInt(20) == 0 ? 1024 * 1024 + random.nextInt(1024 * 1024) : random.nextInt(256 * 1024);
        byte[] data = Content.bytes(random.nextLong(), size);
        // The write starts once the gate opens. Gating the upstream itself with
        // Mono.fromFuture(gate).thenMany(items) is not safe: in Reactor 3.6-3.8 a request racing the
        // switch to the second source can be lost (the write then waits forever) or counted twice.
        Flux<ByteBuffer> upstream = Content.publisher(data, 1024 + random.nextInt(64 * 1024), random.nextLong());
        IOException injected = null;
        if (random.nextInt(10) == 0) {
            injected = new IOException("soak: injected upstream error in operation " + id);
            upstream = upstream.take(random.nextInt(8)).concatWith(Flux.error(injected)); // take: no cancel after 0
        }
        boolean atomic = random.nextBoolean();
        WriteOptions options = WriteOptions.defaults().withDemand(DEMANDS[random.nextInt(DEMANDS.length)]);
        if (atomic) {
            options = options.withAtomicReplace();
        }
        Path target = directory.resolve("write-" + id);
        String expected = Content.sha256(data);
        Flux<ByteBuffer> items = upstream;
        WriteOptions chosen = options;
        IOException error = injected;
        return gate.thenCompose(open -> {
            CompletableFuture<Long> stage =
                    ReactiveFile.of(target).write(items, chosen).toCompletableFuture();
            maybeCancel(stage);
            return settle(stage, error, target, expected, size);
        });
    }

    private CompletableFuture<Outcome> copy() {
        Source source = sources.get(random.nextInt(sources.size()));
        WriteOptions options = random.nextBoolean()
                ? WriteOptions.defaults()
                : WriteOptions.defaults().withAtomicReplace();
        Path target = directory.resolve("copy-" + id);
        long size;
        try {
            size = Files.size(source.path());
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
        return gate.thenCompose(open -> {
            CompletableFuture<Long> stage =
                    ReactiveFile.of(source.path()).copyTo(target, options).toCompletableFuture();
            maybeCancel(stage);
            return settle(stage, null, target, source.sha256(), size);
        });
    }

    private CompletableFuture<Outcome> read() {
        Source source = sources.get(random.nextInt(sources.size()));
        int chunk = CHUNK_SIZES[random.nextInt(CHUNK_SIZES.length)];
        long cancelAfter = random.nextInt(8) == 0 ? random.nextInt(4) : -1;
        DigestingSubscriber subscriber = new DigestingSubscriber(source.sha256(), cancelAfter);
        gate.thenRun(() -> ReactiveFile.of(source.path())
                .read(ReadOptions.defaults().withChunkSize(chunk))
                .subscribe(subscriber));
        return subscriber.outcome;
    }

    private void maybeCancel(CompletableFuture<Long> stage) {
        if (random.nextInt(10) == 0) {
            canceller.schedule(() -> stage.cancel(true), random.nextInt(3000), TimeUnit.MICROSECONDS);
        }
    }

    /** Maps how the stage ended to an outcome, verifying the file of a completed one off the IO pool. */
    private CompletableFuture<Outcome> settle(
            CompletableFuture<Long> stage, IOException injected, Path target, String expected, long size) {
        return stage.handleAsync(
                (count, error) -> {
                    try {
                        if (error == null) {
                            if (count != size) {
                                throw new AssertionError(
                                        "operation " + id + " reported " + count + " bytes, expected " + size);
                            }
                            String actual = Content.sha256(target);
                            if (!actual.equals(expected)) {
                                throw new AssertionError(
                                        "operation " + id + " completed but " + target + " has the wrong content");
                            }
                            return Outcome.VERIFIED;
                        }
                        Throwable cause = error instanceof CompletionException && error.getCause() != null
                                ? error.getCause()
                                : error;
                        if (cause instanceof CancellationException) {
                            return Outcome.CANCELLED;
                        }
                        if (injected != null && cause == injected) {
                            return Outcome.INJECTED_ERROR;
                        }
                        throw new AssertionError("operation " + id + " failed unexpectedly", cause);
                    } catch (IOException e) {
                        throw new CompletionException(e);
                    } finally {
                        try {
                            Files.deleteIfExists(target);
                        } catch (IOException ignored) {
                            // a leftover file is reported by the temporary/descriptor checks, not here
                        }
                    }
                },
                verifier);
    }

    /** Reads a whole source into a digest (no chunk kept), optionally cancelling after some chunks. */
    private final class DigestingSubscriber implements Subscriber<ByteBuffer> {
        final CompletableFuture<Outcome> outcome = new CompletableFuture<>();
        private final MessageDigest digest = sha256();
        private final String expected;
        private final long cancelAfter;
        private Subscription subscription;
        private long received;

        DigestingSubscriber(String expected, long cancelAfter) {
            this.expected = expected;
            this.cancelAfter = cancelAfter;
        }

        @Override
        public void onSubscribe(Subscription subscription) {
            this.subscription = subscription;
            if (cancelAfter == 0) {
                subscription.cancel();
                outcome.complete(Outcome.CANCELLED);
                return;
            }
            subscription.request(1 + random.nextInt(16));
        }

        @Override
        public void onNext(ByteBuffer chunk) {
            digest.update(chunk);
            received++;
            if (received == cancelAfter) {
                subscription.cancel();
                outcome.complete(Outcome.CANCELLED);
            } else {
                subscription.request(1);
            }
        }

        @Override
        public void onError(Throwable error) {
            outcome.completeExceptionally(new AssertionError("read " + id + " failed", error));
        }

        @Override
        public void onComplete() {
            String actual = HexFormat.of().formatHex(digest.digest());
            if (actual.equals(expected)) {
                outcome.complete(Outcome.VERIFIED);
            } else {
                outcome.completeExceptionally(new AssertionError("read " + id + " returned the wrong content"));
            }
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
