package io.sluice.reliability;

import io.sluice.IoExecutors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Many reads, writes and copies at once, with random cancellations and injected errors; afterwards
 * descriptors, busy {@code sluice-} threads and retained heap are back at their baseline, every
 * operation has ended, and every completed write and copy has the right content.
 *
 * <p>CI runs {@value #DEFAULT_OPERATIONS} operations. The full soak:
 * <pre>mvn -B -pl sluice-core test -Dtest=SoakTest -Dsluice.soak.operations=10000</pre>
 * The first half runs at most 100 operations at a time, the second half at most 1,000
 * ({@code -Dsluice.soak.inFlight=100,1000}); {@code -Dsluice.soak.seed} repeats a run. The figures
 * are printed and written to {@code target/soak-result.txt}.
 */
class SoakTest {

    static final int DEFAULT_OPERATIONS = 1000;
    private static final long HEAP_MARGIN_BYTES = 64L * 1024 * 1024;

    @TempDir
    Path directory;

    @Test
    void operationsUnderLoadEndCleanlyAndLeaveNothingBehind() throws Exception {
        int operations = Integer.getInteger("sluice.soak.operations", DEFAULT_OPERATIONS);
        int[] inFlightLimits = parseLimits(System.getProperty("sluice.soak.inFlight", "100,1000"));
        long seed = Long.getLong("sluice.soak.seed", new Random().nextLong());
        List<SoakOperation.Source> sources = sources(new Random(seed));

        ExecutorService verifier = Executors.newFixedThreadPool(2);
        ScheduledExecutorService canceller = Executors.newSingleThreadScheduledExecutor();
        List<String> baselineFds = OpenFiles.targets();
        long baselineHeap = retainedHeap();
        Map<SoakOperation.Outcome, AtomicInteger> outcomes = new EnumMap<>(SoakOperation.Outcome.class);
        for (SoakOperation.Outcome outcome : SoakOperation.Outcome.values()) {
            outcomes.put(outcome, new AtomicInteger());
        }
        List<Throwable> failures = new ArrayList<>();
        List<CompletableFuture<SoakOperation.Outcome>> ended = new ArrayList<>();
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger peakInFlight = new AtomicInteger();
        Random random = new Random(seed);
        long started = System.nanoTime();
        try {
            for (int phase = 0; phase < inFlightLimits.length; phase++) {
                Semaphore slots = new Semaphore(inFlightLimits[phase]);
                int count = operations / inFlightLimits.length + (phase == 0 ? operations % inFlightLimits.length : 0);
                CompletableFuture<Void> gate = new CompletableFuture<>();
                for (int i = 0; i < count; i++) {
                    if (!slots.tryAcquire()) {
                        gate.complete(null);                 // a full wave is in flight: let it run
                        gate = new CompletableFuture<>();
                        acquire(slots, 1, inFlight);
                    }
                    peakInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                    CompletableFuture<SoakOperation.Outcome> operation = new SoakOperation(ended.size(),
                            random.nextLong(), directory, sources, canceller, verifier).start(gate);
                    ended.add(operation.whenComplete((outcome, error) -> {
                        inFlight.decrementAndGet();
                        slots.release();
                        if (error != null) {
                            synchronized (failures) {
                                failures.add(error);
                            }
                        } else {
                            outcomes.get(outcome).incrementAndGet();
                        }
                    }));
                }
                gate.complete(null);
                acquire(slots, inFlightLimits[phase], inFlight);   // the phase is over when every slot is back
            }
            CompletableFuture.allOf(ended.toArray(new CompletableFuture<?>[0]))
                    .handle((ignored, error) -> null).get(120, TimeUnit.SECONDS);
        } finally {
            canceller.shutdownNow();
            verifier.shutdown();
            assertTrue(verifier.awaitTermination(30, TimeUnit.SECONDS));
        }
        double seconds = (System.nanoTime() - started) / 1e9;

        if (!failures.isEmpty()) {
            AssertionError error = new AssertionError(failures.size() + " of " + operations
                    + " operations went wrong (seed " + seed + "); the first is the cause", failures.get(0));
            failures.stream().skip(1).limit(5).forEach(error::addSuppressed);
            throw error;
        }
        assertEquals(operations, outcomes.values().stream().mapToInt(AtomicInteger::get).sum(), "every operation ended");
        Stages.awaitNoTemporaries(directory);
        OpenFiles.awaitClosed(directory, baselineFds);
        int busyThreads = awaitIdleSluiceThreads();
        int sluiceThreads = sluiceThreads(false);
        long heapAfter = retainedHeap();

        String result = String.format("soak: %d operations (seed %d, in flight at most %s, peak %d) in %.1f s "
                        + "(%.0f ops/s): %d verified, %d cancelled, %d injected errors, 0 failures; "
                        + "descriptors back at baseline (%d); sluice threads %d alive, %d busy; "
                        + "retained heap %d MiB before, %d MiB after%n",
                operations, seed, java.util.Arrays.toString(inFlightLimits), peakInFlight.get(), seconds,
                operations / seconds, outcomes.get(SoakOperation.Outcome.VERIFIED).get(),
                outcomes.get(SoakOperation.Outcome.CANCELLED).get(),
                outcomes.get(SoakOperation.Outcome.INJECTED_ERROR).get(), baselineFds.size(),
                sluiceThreads, busyThreads, baselineHeap >> 20, heapAfter >> 20);
        System.out.print(result);
        Path report = Paths.get("target", "soak-result.txt");
        Files.createDirectories(report.getParent());
        Files.writeString(report, result, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);

        assertTrue(sluiceThreads <= filePoolSize() + blockingPoolSize(),
                "more sluice threads alive than the pools allow: " + sluiceThreads);
        assertTrue(heapAfter <= baselineHeap + HEAP_MARGIN_BYTES,
                "retained heap grew from " + (baselineHeap >> 20) + " MiB to " + (heapAfter >> 20) + " MiB");
    }

    /** Eight files from empty to 3 MiB that the soak reads and copies. */
    private List<SoakOperation.Source> sources(Random random) throws IOException {
        List<SoakOperation.Source> sources = new ArrayList<>();
        int[] sizes = {0, 1, 4095, 65_537, 300_000, 1024 * 1024, 2 * 1024 * 1024 + 1, 3 * 1024 * 1024};
        for (int size : sizes) {
            byte[] data = Content.bytes(random.nextLong(), size);
            Path path = Files.write(directory.resolve("source-" + size), data);
            sources.add(new SoakOperation.Source(path, Content.sha256(data)));
        }
        return sources;
    }

    /** Takes {@code permits} slots, failing instead of hanging when operations stop ending. */
    private static void acquire(Semaphore slots, int permits, AtomicInteger inFlight) throws InterruptedException {
        if (!slots.tryAcquire(permits, 60, TimeUnit.SECONDS)) {
            fail("no operation ended for 60 s; " + inFlight.get() + " still in flight");
        }
    }

    private static int[] parseLimits(String value) {
        String[] parts = value.split(",");
        int[] limits = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            limits[i] = Integer.parseInt(parts[i].trim());
            if (limits[i] < 1) {
                throw new IllegalArgumentException("sluice.soak.inFlight needs positive numbers, was " + value);
            }
        }
        return limits;
    }

    /** Waits until no {@code sluice-} thread is running a task (idle pool threads wait in their queue). */
    private static int awaitIdleSluiceThreads() {
        long deadline = System.nanoTime() + OpenFiles.DEADLINE.toNanos();
        int busy = sluiceThreads(true);
        while (busy > 0) {
            if (System.nanoTime() > deadline) {
                fail(busy + " sluice threads still busy after " + OpenFiles.DEADLINE);
            }
            OpenFiles.pause();
            busy = sluiceThreads(true);
        }
        return busy;
    }

    private static int sluiceThreads(boolean busyOnly) {
        int count = 0;
        for (Map.Entry<Thread, StackTraceElement[]> entry : Thread.getAllStackTraces().entrySet()) {
            Thread thread = entry.getKey();
            if (!thread.getName().startsWith("sluice-") || !thread.isAlive()) {
                continue;
            }
            if (!busyOnly || (thread.getState() == Thread.State.RUNNABLE && !waitingForWork(entry.getValue()))) {
                count++;
            }
        }
        return count;
    }

    /** Whether a RUNNABLE pool thread is only taking its next task from the queue. */
    private static boolean waitingForWork(StackTraceElement[] stack) {
        for (StackTraceElement frame : stack) {
            if (frame.getMethodName().equals("getTask")) {
                return true;
            }
        }
        return false;
    }

    private static int filePoolSize() {
        return Integer.getInteger(IoExecutors.FILE_THREADS_PROPERTY, Math.max(4, 2 * Runtime.getRuntime().availableProcessors()));
    }

    private static int blockingPoolSize() {
        return Integer.getInteger(IoExecutors.BLOCKING_THREADS_PROPERTY, 64);
    }

    /** Used heap after full collections (the least of three samples). */
    private static long retainedHeap() {
        Runtime runtime = Runtime.getRuntime();
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            least = Math.min(least, runtime.totalMemory() - runtime.freeMemory());
        }
        return least;
    }
}
