package io.sluice.bench;

import io.sluice.bench.providers.Providers;
import io.sluice.lab.ChildJvm;
import io.sluice.lab.FileTrees;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The memory stress case and the thread count, each provider in a child JVM of its own. Stress: one
 * write of {@code sizeBytes} (1 GiB by default) of fresh 1 KiB buffers from a publisher that emits as
 * fast as it is asked, with a 64 MiB heap; an {@code OutOfMemoryError} ends the child. Threads:
 * {@link #CONCURRENT_WRITES} concurrent 64 KiB writes. Every output is verified when it completes.
 */
public final class Stress {

    /** The memory stress case's heap, as {@code -Xmx} takes it. */
    static final String MAX_HEAP = "64m";

    public static final String HEAP = "-Xmx" + MAX_HEAP;
    public static final int CONCURRENT_WRITES = 1000;
    static final String RESULT_PREFIX = "STRESS-RESULT ";

    private Stress() {}

    /** One provider's child: how it ended, how long its writes took, the heap's peak and its live threads. */
    public record Result(
            String provider, String outcome, double seconds, double peakHeapMiB, int threadsBefore, int peakThreads) {
        /** A line of the memory table. */
        public String line() {
            return String.format(
                    Locale.ROOT,
                    "| %s | %s | %s | %s |",
                    provider,
                    outcome,
                    Double.isNaN(seconds) ? "-" : String.format(Locale.ROOT, "%.2f", seconds),
                    Double.isNaN(peakHeapMiB) ? "-" : String.format(Locale.ROOT, "%.1f", peakHeapMiB));
        }

        /** A line of the threads table. */
        public String threadsLine() {
            return String.format(
                    Locale.ROOT,
                    "| %s | %s | %d | %d | %d |",
                    provider,
                    outcome,
                    threadsBefore,
                    peakThreads,
                    peakThreads - threadsBefore);
        }
    }

    public static List<Result> run(List<String> providers, long sizeBytes, String java, Path dir, long timeoutSeconds)
            throws IOException, InterruptedException {
        return children(
                providers,
                MAX_HEAP,
                1,
                Payload.chunks(sizeBytes),
                java,
                dir,
                timeoutSeconds,
                "stress: %s writes " + Cell.formatSize(sizeBytes) + " with " + HEAP + " ...%n");
    }

    public static List<Result> threads(List<String> providers, String java, Path dir, long timeoutSeconds)
            throws IOException, InterruptedException {
        return children(
                providers,
                "1g",
                CONCURRENT_WRITES,
                64,
                java,
                dir,
                timeoutSeconds,
                "threads: %s runs " + CONCURRENT_WRITES + " concurrent writes ...%n");
    }

    private static List<Result> children(
            List<String> providers,
            String maxHeap,
            int writes,
            long chunksEach,
            String java,
            Path dir,
            long timeoutSeconds,
            String progress)
            throws IOException, InterruptedException {
        Files.createDirectories(dir);
        List<Result> results = new ArrayList<>();
        for (String provider : providers) {
            Path log = dir.resolve("stress-" + provider + ".log");
            // Each child writes into a folder of its own, removed once it has exited: a child that dies of
            // OutOfMemoryError exits at once, without deleting its files, and a writer that does not
            // truncate would otherwise find the last child's file in the next one's place.
            Path files = Files.createTempDirectory(dir, "stress-" + provider + "-");
            ChildJvm.Spec spec = ChildJvm.main("stress child for " + provider, BenchMain.class.getName())
                    .java(java)
                    .maxHeap(maxHeap)
                    .exitOnOutOfMemory()
                    .outputTo(log)
                    .args(List.of(
                            "stress-worker",
                            provider,
                            Integer.toString(writes),
                            Long.toString(chunksEach),
                            files.toString()));
            System.out.printf(progress, provider);
            long began = System.nanoTime();
            Result result;
            try (ChildJvm child = spec.start()) {
                if (!child.awaitExit(Duration.ofSeconds(timeoutSeconds))) {
                    child.kill();
                    result = new Result(
                            provider, "timed out after " + timeoutSeconds + " s", Double.NaN, Double.NaN, 0, 0);
                } else {
                    result = parse(
                            provider,
                            child.exitStatus(),
                            Files.readAllLines(log, StandardCharsets.UTF_8),
                            (System.nanoTime() - began) / 1e9);
                }
            } finally {
                try {
                    FileTrees.delete(files);
                } catch (IOException e) { // the result stands; the next child writes into a folder of its own
                    System.out.println("  could not delete " + files + ": " + e);
                }
            }
            System.out.println("  " + (writes == 1 ? result.line() : result.threadsLine()));
            results.add(result);
        }
        return results;
    }

    /** The child's result line; without one, how it died and how long it lived (JVM start included). */
    static Result parse(String provider, int exit, List<String> output, double childSeconds) {
        for (String line : output) {
            if (line.startsWith(RESULT_PREFIX)) {
                String[] fields = line.substring(RESULT_PREFIX.length()).split(" ", 5);
                return new Result(
                        provider,
                        fields[4],
                        Double.parseDouble(fields[0]),
                        Double.parseDouble(fields[1]),
                        Integer.parseInt(fields[2]),
                        Integer.parseInt(fields[3]));
            }
        }
        boolean oom = output.stream().anyMatch(line -> line.contains("OutOfMemoryError"));
        String outcome = (oom
                        ? "OOM (OutOfMemoryError)"
                        : "crashed, exit " + exit + ": "
                                + (output.isEmpty() ? "no output" : output.get(output.size() - 1)))
                + String.format(Locale.ROOT, " after %.1f s (child JVM lifetime)", childSeconds);
        return new Result(provider, outcome, Double.NaN, Double.NaN, 0, 0);
    }

    /** The child's side: {@code writes} concurrent writes of {@code chunksEach} chunks, then one result line. */
    static void worker(String providerName, int writes, long chunksEach, Path dir) throws Exception {
        List<MemoryPoolMXBean> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(pool -> pool.getType() == MemoryType.HEAP)
                .toList();
        heapPools.forEach(MemoryPoolMXBean::resetPeakUsage);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        List<Path> targets = IntStream.range(0, writes)
                .mapToObj(index -> dir.resolve("stress-" + providerName + "-" + index + ".out"))
                .toList();
        String outcome = "completed";
        long nanos;
        int before;
        int peak;
        try (Provider provider = Providers.create(providerName)) {
            before = threads.getThreadCount();
            threads.resetPeakThreadCount();
            long began = System.nanoTime();
            try {
                CompletableFuture.allOf(targets.stream()
                                .map(target -> provider.write(target, chunksEach, false))
                                .toArray(CompletableFuture[]::new))
                        .get();
            } catch (ExecutionException e) {
                outcome = (e.getCause() instanceof OutOfMemoryError ? "OOM: " : "FAILED: ")
                        + CellRunner.describe(e.getCause());
            }
            nanos = System.nanoTime() - began;
            peak = threads.getPeakThreadCount();
            for (int i = 0; i < writes && outcome.equals("completed"); i++) {
                String wrong = Payload.verify(targets.get(i), chunksEach * Payload.CHUNK_BYTES);
                outcome = wrong == null ? outcome : "FAILED: " + wrong;
            }
        } finally {
            for (Path target : targets) {
                Files.deleteIfExists(target);
            }
        }
        long peakHeap = heapPools.stream()
                .mapToLong(pool -> pool.getPeakUsage().getUsed())
                .sum();
        System.out.printf(
                Locale.ROOT,
                "%s%.3f %.1f %d %d %s%n",
                RESULT_PREFIX,
                nanos / 1e9,
                peakHeap / (1024.0 * 1024.0),
                before,
                peak,
                outcome.replace('\n', ' '));
        System.out.flush();
    }

    /** The memory table of {@link #run}'s results, then the threads table of {@link #threads}' results. */
    public static String markdown(List<Result> stress, long sizeBytes, List<Result> threads) {
        return "Write " + Cell.formatSize(sizeBytes) + " of fresh 1 KiB buffers, " + HEAP + ", one child JVM per "
                + "provider:\n\n| Provider | Outcome | Time s | Peak heap MiB |\n|---|---|---:|---:|\n"
                + stress.stream().map(result -> result.line() + "\n").collect(Collectors.joining())
                + "\n" + CONCURRENT_WRITES + " concurrent writes of 64 KiB (64 fresh 1 KiB chunks each), one fresh "
                + "child JVM per provider; live threads before the writes start (JVM, provider set-up) and at the "
                + "peak:\n\n| Provider | Outcome | Threads before | Peak threads | Added |\n|---|---|---:|---:|---:|\n"
                + threads.stream().map(result -> result.threadsLine() + "\n").collect(Collectors.joining());
    }

    /** The memory stress case's peak heap per provider, a failed one's outcome under its name. */
    static BarChart chart(List<Result> results, long sizeBytes) {
        List<String> names = results.stream()
                .map(result -> result.provider()
                        + (result.outcome().equals("completed")
                                ? ""
                                : "\n(" + result.outcome().split("[ :(]")[0] + ")"))
                .toList();
        double[][] values = {results.stream().mapToDouble(Result::peakHeapMiB).toArray()};
        return new BarChart(
                "Peak heap writing " + Cell.formatSize(sizeBytes) + " of 1 KiB buffers with " + HEAP,
                "MiB",
                names,
                List.of("peak heap MiB"),
                values,
                false);
    }
}
