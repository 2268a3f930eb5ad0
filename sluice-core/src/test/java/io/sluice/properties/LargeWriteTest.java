package io.sluice.properties;

import io.sluice.ReactiveFile;
import io.sluice.testkit.OpenFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A write of more than 2 GiB in total (the byte count, positions and sizes past
 * {@link Integer#MAX_VALUE}) from a synchronous upstream that emits read-only slices, of varying
 * offsets and lengths, of one direct buffer: the stage completes with the exact count, the file has
 * that size, and sampled bytes on both sides of the 2 GiB line and at the end are the slices' bytes.
 * The file holds real blocks, deleted at once.
 */
class LargeWriteTest {

    private static final long TOTAL = (1L << 31) + 3 * 1024 * 1024 + 17;
    private static final int BUFFER_BYTES = 8 * 1024 * 1024;

    @TempDir
    Path directory;

    @Test
    void aWriteOfMoreThanTwoGibCountsAndPlacesEveryByte() throws Exception {
        ByteBuffer shared = ByteBuffer.allocateDirect(BUFFER_BYTES);
        byte[] pattern = new byte[BUFFER_BYTES];
        new Random(42).nextBytes(pattern);
        shared.put(pattern).flip();
        Slices slices = new Slices(shared.asReadOnlyBuffer());
        Path target = directory.resolve("large");
        try {
            CompletableFuture<Long> stage =
                    ReactiveFile.of(target).write(slices).toCompletableFuture();
            AtomicReference<List<String>> openInDependent = new AtomicReference<>();
            CompletableFuture<?> dependent =
                    stage.whenComplete((count, error) -> openInDependent.set(OpenFiles.inside(directory)));

            assertEquals(TOTAL, stage.get(120, TimeUnit.SECONDS));
            dependent.get(10, TimeUnit.SECONDS);
            if (OpenFiles.supported()) {
                assertEquals(List.of(), openInDependent.get(), "open when a dependent of the completed stage ran");
            }
            assertEquals(TOTAL, Files.size(target));
            try (FileChannel file = FileChannel.open(target, StandardOpenOption.READ)) {
                Random random = new Random(7);
                List<Long> positions = new ArrayList<>(
                        List.of(0L, (1L << 31) - 1, 1L << 31, (1L << 31) + 1, (1L << 31) - BUFFER_BYTES, TOTAL - 1));
                for (int i = 0; i < 64; i++) {
                    positions.add((long) (random.nextDouble() * TOTAL));
                }
                for (long position : positions) {
                    ByteBuffer one = ByteBuffer.allocate(1);
                    assertEquals(1, file.read(one, position), "read at " + position);
                    assertEquals(pattern[slices.bufferOffsetOf(position)], one.get(0), "the byte at " + position);
                }
            }
        } finally {
            Files.deleteIfExists(target);
        }
    }

    /**
     * Emits {@link #TOTAL} bytes as read-only slices of {@code shared} synchronously inside
     * {@code request}, and records where each slice landed in the file.
     */
    private static final class Slices implements Publisher<ByteBuffer> {
        private final ByteBuffer shared;
        private final List<long[]> placed =
                new ArrayList<>(); // {file position, buffer offset}; the emitting thread, then the test

        Slices(ByteBuffer shared) {
            this.shared = shared;
        }

        int bufferOffsetOf(long position) {
            long[] slice = placed.get(0);
            for (long[] candidate : placed) {
                if (candidate[0] > position) {
                    break;
                }
                slice = candidate;
            }
            return (int) (slice[1] + position - slice[0]);
        }

        @Override
        public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
            subscriber.onSubscribe(new Subscription() {
                private long demand;
                private long emitted;
                private boolean emitting;
                private boolean done;
                private int index;

                @Override
                public void request(long n) {
                    demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
                    if (emitting) {
                        return; // §3.3: the outer call emits
                    }
                    emitting = true;
                    while (demand > 0 && emitted < TOTAL && !done) {
                        int offset = (index * 4099) % (1024 * 1024);
                        int length = (int) Math.min(TOTAL - emitted, BUFFER_BYTES - offset - (index * 13) % 4096);
                        index++;
                        placed.add(new long[] {emitted, offset});
                        emitted += length;
                        demand--;
                        subscriber.onNext(shared.duplicate()
                                .position(offset)
                                .limit(offset + length)
                                .slice());
                    }
                    if (emitted == TOTAL && !done) {
                        done = true;
                        subscriber.onComplete();
                    }
                    emitting = false;
                }

                @Override
                public void cancel() {
                    done = true;
                }
            });
        }
    }

    static {
        assertTrue(TOTAL > Integer.MAX_VALUE);
    }
}
