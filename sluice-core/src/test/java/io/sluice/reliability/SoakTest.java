package io.sluice.reliability;

import io.sluice.IoExecutors;
import io.sluice.testkit.OpenFiles;
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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
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
 * every operation has ended, every completed one has the right content, descriptors are back at
 * their baseline, every {@code sluice-} thread is idle in its pool and no more are alive than the
 * pools allow, and retained heap is within {@link #HEAP_MARGIN_BYTES} of its baseline (taken after
 * a warm-up of {@value #WARM_UP_OPERATIONS} operations).
 *
 * <p>CI runs {@value #DEFAULT_OPERATIONS} operations. The full soak:
 * <pre>mvn -B -pl sluice-core test -Dtest=SoakTest -Dsluice.soak.operations=10000</pre>
 * The first half runs at most 100 operations at a time, the second half at most 1,000
 * ({@code -Dsluice.soak.inFlight=100,1000}); {@code -Dsluice.soak.seed} repeats a run. The figures
 * are printed and appended to {@code target/soak-result.txt}.
 */
class SoakTest {

    static final int DEFAULT_OPERATIONS = 1000;
    /**
     * How much more heap may be reachable after the run than before it. A leak of 1 KiB per
     * operation retains about 1 MiB at the CI size, twice this margin; see docs/RELIABILITY.md
     * for the measured noise.
     */
    private static final long HEAP_MARGIN_BYTES = 512L * 1024;

    private static final int WARM_UP_OPERATIONS = 50;
    private static final String FILE_POOL_PREFIX = "sluice-io-";
    private static final String TIMER_THREAD = "sluice-timer"; // the one timer: timeouts, the stuck-call watch
    private static final String TIMEOUT_PREFIX = "sluice-timeout-"; // aborts of timed-out stages; end when idle
    private static final String BLOCKING_POOL_PREFIX = "sluice-blocking-";

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
        Map<Thread, StackTraceElement[]> baselineThreads = sluiceThreads();
        warmUp(sources, seed, canceller, verifier);
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
                        gate.complete(null); // a full wave is in flight: let it run
                        gate = new CompletableFuture<>();
                        acquire(slots, 1, inFlight);
                    }
                    peakInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                    CompletableFuture<SoakOperation.Outcome> operation = new SoakOperation(
                                    ended.size(), random.nextLong(), directory, sources, canceller, verifier)
                            .start(gate);
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
                acquire(slots, inFlightLimits[phase], inFlight); // the phase is over when every slot is back
            }
            CompletableFuture.allOf(ended.toArray(new CompletableFuture<?>[0]))
                    .handle((ignored, error) -> null)
                    .get(120, TimeUnit.SECONDS);
            ended.clear(); // counted in outcomes; not retained heap
        } finally {
            canceller.shutdownNow();
            verifier.shutdown();
            assertTrue(verifier.awaitTermination(30, TimeUnit.SECONDS));
        }
        double seconds = (System.nanoTime() - started) / 1e9;

        if (!failures.isEmpty()) {
            AssertionError error = new AssertionError(
                    failures.size() + " of " + operations + " operations went wrong (seed " + seed
                            + "); the first is the cause",
                    failures.get(0));
            failures.stream().skip(1).limit(5).forEach(error::addSuppressed);
            throw error;
        }
        assertEquals(
                operations,
                outcomes.values().stream().mapToInt(AtomicInteger::get).sum(),
                "every operation ended");
        Stages.awaitNoTemporaries(directory);
        OpenFiles.awaitClosed(directory, baselineFds);
        ThreadsAfter threads = awaitIdleSluiceThreads(baselineThreads);
        long heapAfter = retainedHeap();

        String result = String.format(
                "soak: %d operations (seed %d, in flight at most %s, peak %d) in %.1f s "
                        + "(%.0f ops/s): %d verified, %d cancelled, %d injected errors, 0 failures; "
                        + "descriptors back at baseline (%d); sluice threads: %d alive, %d added (%d io, "
                        + "%d blocking), all idle; retained heap %d KiB before, %d KiB after (%+d KiB, "
                        + "margin %d KiB)%n",
                operations,
                seed,
                java.util.Arrays.toString(inFlightLimits),
                peakInFlight.get(),
                seconds,
                operations / seconds,
                outcomes.get(SoakOperation.Outcome.VERIFIED).get(),
                outcomes.get(SoakOperation.Outcome.CANCELLED).get(),
                outcomes.get(SoakOperation.Outcome.INJECTED_ERROR).get(),
                baselineFds.size(),
                threads.alive(),
                threads.added().size(),
                threads.addedWithPrefix(FILE_POOL_PREFIX),
                threads.addedWithPrefix(BLOCKING_POOL_PREFIX),
                baselineHeap >> 10,
                heapAfter >> 10,
                (heapAfter - baselineHeap) >> 10,
                HEAP_MARGIN_BYTES >> 10);
        System.out.print(result);
        Path report = Paths.get("target", "soak-result.txt");
        Files.createDirectories(report.getParent());
        Files.writeString(report, result, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);

        assertTrue(
                heapAfter <= baselineHeap + HEAP_MARGIN_BYTES,
                "retained heap grew by "
                        + ((heapAfter - baselineHeap) >> 10) + " KiB (" + (baselineHeap >> 10) + " -> "
                        + (heapAfter >> 10)
                        + " KiB), more than the " + (HEAP_MARGIN_BYTES >> 10) + " KiB margin: something the operations "
                        + "allocated is still reachable");
    }

    /**
     * Runs a few operations of every kind before the heap baseline is taken, so that what the
     * first use of a code path allocates once (class statics, lambda forms, pooled staging
     * buffers) is in the baseline and not counted as retained by the soak.
     */
    private void warmUp(
            List<SoakOperation.Source> sources, long seed, ScheduledExecutorService canceller, ExecutorService verifier)
            throws Exception {
        Random random = new Random(~seed);
        CompletableFuture<Void> open = CompletableFuture.completedFuture(null);
        List<CompletableFuture<SoakOperation.Outcome>> warmUps = new ArrayList<>();
        for (int i = 0; i < WARM_UP_OPERATIONS; i++) {
            warmUps.add(
                    new SoakOperation(-1 - i, random.nextLong(), directory, sources, canceller, verifier).start(open));
        }
        CompletableFuture.allOf(warmUps.toArray(new CompletableFuture<?>[0])).get(120, TimeUnit.SECONDS);
        Stages.awaitNoTemporaries(directory);
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

    /** The {@code sluice-} threads alive after the run, and those not alive at the baseline. */
    private record ThreadsAfter(int alive, List<Thread> added) {
        long addedWithPrefix(String prefix) {
            return added.stream()
                    .filter(thread -> thread.getName().startsWith(prefix))
                    .count();
        }
    }

    /**
     * Waits until every {@code sluice-} thread is idle in its pool, then checks what the run added.
     * A leak looks like one of these, and each fails naming the threads with their stacks:
     * <ul>
     *   <li>a thread that never gets back to its pool's queue ({@code ThreadPoolExecutor.getTask}):
     *       stuck in a read or write, parked on a latch, or spinning. Idle pool threads are fine;
     *       a thread already busy at the baseline (another test's) is left out;</li>
     *   <li>more {@code sluice-io-} threads than the file pool's size, or more {@code sluice-blocking-}
     *       threads than the blocking pool's: a pool created per operation, not shared;</li>
     *   <li>more than one {@code sluice-timer}, or any other new {@code sluice-} thread: the shared
     *       pools, the timer and its timeout threads are the only ones.</li>
     * </ul>
     */
    private static ThreadsAfter awaitIdleSluiceThreads(Map<Thread, StackTraceElement[]> baseline) {
        Set<Thread> busyAtBaseline = new HashSet<>();
        baseline.forEach((thread, stack) -> {
            if (!waitingForWork(stack)) {
                busyAtBaseline.add(thread);
            }
        });
        long deadline = System.nanoTime() + OpenFiles.DEADLINE.toNanos();
        Map<Thread, StackTraceElement[]> now = sluiceThreads();
        Map<Thread, StackTraceElement[]> stuck = notWaitingForWork(now, busyAtBaseline);
        while (!stuck.isEmpty()) {
            if (System.nanoTime() > deadline) {
                fail(stuck.size() + " sluice threads still not back in their pool's queue after " + OpenFiles.DEADLINE
                        + " (stuck in a task: a leak):\n" + describe(stuck));
            }
            OpenFiles.pause();
            now = sluiceThreads();
            stuck = notWaitingForWork(now, busyAtBaseline);
        }
        Map<Thread, StackTraceElement[]> added = new LinkedHashMap<>(now);
        added.keySet().removeAll(baseline.keySet());
        assertAtMost(filePoolSize(), withPrefix(now, FILE_POOL_PREFIX), "the file pool's size");
        assertAtMost(blockingPoolSize(), withPrefix(now, BLOCKING_POOL_PREFIX), "the blocking pool's size");
        Map<Thread, StackTraceElement[]> foreign = new LinkedHashMap<>(added);
        foreign.keySet()
                .removeIf(thread -> thread.getName().startsWith(FILE_POOL_PREFIX)
                        || thread.getName().startsWith(BLOCKING_POOL_PREFIX)
                        || thread.getName().equals(TIMER_THREAD)
                        || thread.getName().startsWith(TIMEOUT_PREFIX));
        assertAtMost(1, withPrefix(now, TIMER_THREAD), "one timer");
        if (!foreign.isEmpty()) {
            fail("sluice threads outside the shared pools were started and are still alive:\n" + describe(foreign));
        }
        return new ThreadsAfter(now.size(), new ArrayList<>(added.keySet()));
    }

    private static void assertAtMost(int limit, Map<Thread, StackTraceElement[]> threads, String what) {
        if (threads.size() > limit) {
            fail(threads.size() + " threads alive, more than " + what + " (" + limit + "):\n" + describe(threads));
        }
    }

    /** Live {@code sluice-} threads with their stacks. */
    private static Map<Thread, StackTraceElement[]> sluiceThreads() {
        Map<Thread, StackTraceElement[]> result = new LinkedHashMap<>();
        for (Map.Entry<Thread, StackTraceElement[]> entry :
                Thread.getAllStackTraces().entrySet()) {
            Thread thread = entry.getKey();
            if (thread.getName().startsWith("sluice-") && thread.isAlive()) {
                result.put(thread, entry.getValue());
            }
        }
        return result;
    }

    private static Map<Thread, StackTraceElement[]> withPrefix(
            Map<Thread, StackTraceElement[]> threads, String prefix) {
        Map<Thread, StackTraceElement[]> result = new LinkedHashMap<>(threads);
        result.keySet().removeIf(thread -> !thread.getName().startsWith(prefix));
        return result;
    }

    private static Map<Thread, StackTraceElement[]> notWaitingForWork(
            Map<Thread, StackTraceElement[]> threads, Set<Thread> excluded) {
        Map<Thread, StackTraceElement[]> result = new LinkedHashMap<>();
        threads.forEach((thread, stack) -> {
            if (!excluded.contains(thread) && !waitingForWork(stack)) {
                result.put(thread, stack);
            }
        });
        return result;
    }

    /** Whether a pool thread is between tasks: taking the next one from its queue (any state). */
    private static boolean waitingForWork(StackTraceElement[] stack) {
        for (StackTraceElement frame : stack) {
            if (frame.getMethodName().equals("getTask")
                    && frame.getClassName().equals("java.util.concurrent.ThreadPoolExecutor")) {
                return true;
            }
        }
        return false;
    }

    private static String describe(Map<Thread, StackTraceElement[]> threads) {
        StringBuilder text = new StringBuilder();
        threads.forEach((thread, stack) -> {
            text.append('"')
                    .append(thread.getName())
                    .append("\" ")
                    .append(thread.getState())
                    .append('\n');
            for (StackTraceElement frame : stack) {
                text.append("\tat ").append(frame).append('\n');
            }
        });
        return text.toString();
    }

    private static int filePoolSize() {
        return Integer.getInteger(
                IoExecutors.FILE_THREADS_PROPERTY,
                Math.max(4, 2 * Runtime.getRuntime().availableProcessors()));
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
