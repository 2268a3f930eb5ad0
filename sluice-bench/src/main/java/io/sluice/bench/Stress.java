package io.sluice.bench;

import io.sluice.bench.providers.Providers;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The memory stress case: each provider writes {@code sizeBytes} (1 GiB by default) of fresh 1 KiB
 * buffers from a publisher that emits as fast as it is asked, in a child JVM with a 64 MiB heap.
 * An {@code OutOfMemoryError} ends the child ({@code -XX:+ExitOnOutOfMemoryError}); the output is
 * verified when it completes.
 */
public final class Stress {

    public static final String HEAP = "-Xmx64m";
    static final String RESULT_PREFIX = "STRESS-RESULT ";

    private Stress() {
    }

    /** One provider's outcome. */
    public record Result(String provider, String outcome, double seconds, double peakHeapMiB) {
        public String line() {
            return String.format(Locale.ROOT, "| %s | %s | %s | %s |", provider, outcome,
                    Double.isNaN(seconds) ? "-" : String.format(Locale.ROOT, "%.2f", seconds),
                    Double.isNaN(peakHeapMiB) ? "-" : String.format(Locale.ROOT, "%.1f", peakHeapMiB));
        }
    }

    public static List<Result> run(List<String> providers, long sizeBytes, String java, Path dir, long timeoutSeconds)
            throws IOException, InterruptedException {
        Files.createDirectories(dir);
        List<Result> results = new ArrayList<>();
        for (String provider : providers) {
            Path log = dir.resolve("stress-" + provider + ".log");
            List<String> command = List.of(java, HEAP, "-XX:+ExitOnOutOfMemoryError", "-cp",
                    System.getProperty("java.class.path"), BenchMain.class.getName(), "stress-worker",
                    provider, Long.toString(sizeBytes), dir.toString());
            System.out.printf("stress: %s writes %s with %s ...%n", provider, Cell.formatSize(sizeBytes), HEAP);
            long began = System.nanoTime();
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            Result result;
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                result = new Result(provider, "timed out after " + timeoutSeconds + " s", Double.NaN, Double.NaN);
            } else {
                double childSeconds = (System.nanoTime() - began) / 1e9;
                result = parse(provider, process.exitValue(), Files.readAllLines(log, StandardCharsets.UTF_8));
                if (Double.isNaN(result.seconds())) {
                    // no result line: say how long the child lived (JVM start included) before it died
                    result = new Result(provider, result.outcome() + String.format(Locale.ROOT,
                            " after %.1f s (child JVM lifetime)", childSeconds), Double.NaN, Double.NaN);
                }
            }
            System.out.println("  " + result.line());
            results.add(result);
            Files.deleteIfExists(dir.resolve("stress-" + provider + ".out"));
        }
        return results;
    }

    static Result parse(String provider, int exit, List<String> output) {
        for (String line : output) {
            if (line.startsWith(RESULT_PREFIX)) {
                String[] f = line.substring(RESULT_PREFIX.length()).split(" ", 3);
                return new Result(provider, f[2], Double.parseDouble(f[0]), Double.parseDouble(f[1]));
            }
        }
        boolean oom = output.stream().anyMatch(line -> line.contains("OutOfMemoryError"));
        return new Result(provider, oom ? "OOM (OutOfMemoryError)" : "crashed, exit " + exit + ": "
                + (output.isEmpty() ? "no output" : output.get(output.size() - 1)), Double.NaN, Double.NaN);
    }

    /** The child's side: one write, then one result line. */
    static void worker(String providerName, long sizeBytes, Path dir) throws Exception {
        List<MemoryPoolMXBean> heapPools = new ArrayList<>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
                heapPools.add(pool);
            }
        }
        Path target = dir.resolve("stress-" + providerName + ".out");
        String outcome;
        long began;
        long nanos;
        try (Provider provider = Providers.create(providerName)) {
            began = System.nanoTime();
            try {
                provider.write(target, Payload.chunks(sizeBytes), false).get();
                nanos = System.nanoTime() - began;
                String wrong = Payload.verify(target, sizeBytes);
                outcome = wrong == null ? "completed" : "FAILED: " + wrong;
            } catch (java.util.concurrent.ExecutionException e) {
                nanos = System.nanoTime() - began;
                outcome = (e.getCause() instanceof OutOfMemoryError ? "OOM: " : "FAILED: ")
                        + CellRunner.describe(e.getCause());
            }
        } finally {
            Files.deleteIfExists(target);
        }
        long peak = 0;
        for (MemoryPoolMXBean pool : heapPools) {
            peak += pool.getPeakUsage().getUsed();
        }
        System.out.printf(Locale.ROOT, "%s%.3f %.1f %s%n", RESULT_PREFIX, nanos / 1e9, peak / (1024.0 * 1024.0),
                outcome.replace('\n', ' '));
        System.out.flush();
    }

    /** One provider's thread use for {@link #CONCURRENT_WRITES} concurrent writes in a fresh JVM. */
    public record ThreadUse(String provider, String outcome, int threadsBefore, int peakThreads) {
        public String line() {
            return String.format(Locale.ROOT, "| %s | %s | %d | %d | %d |", provider, outcome, threadsBefore,
                    peakThreads, peakThreads - threadsBefore);
        }
    }

    public static final int CONCURRENT_WRITES = 1000;
    static final String THREADS_PREFIX = "THREADS-RESULT ";

    /** Runs {@link #CONCURRENT_WRITES} concurrent 64 KiB writes per provider, each in a fresh child JVM. */
    public static List<ThreadUse> threads(List<String> providers, String java, Path dir, long timeoutSeconds)
            throws IOException, InterruptedException {
        Files.createDirectories(dir);
        List<ThreadUse> results = new ArrayList<>();
        for (String provider : providers) {
            Path log = dir.resolve("threads-" + provider + ".log");
            List<String> command = List.of(java, "-Xmx1g", "-cp", System.getProperty("java.class.path"),
                    BenchMain.class.getName(), "threads-worker", provider, dir.toString());
            System.out.printf("threads: %s runs %d concurrent writes ...%n", provider, CONCURRENT_WRITES);
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            ThreadUse result = new ThreadUse(provider, "timed out after " + timeoutSeconds + " s", 0, 0);
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            } else {
                result = new ThreadUse(provider, "crashed, exit " + process.exitValue(), 0, 0);
                for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                    if (line.startsWith(THREADS_PREFIX)) {
                        String[] f = line.substring(THREADS_PREFIX.length()).split(" ", 3);
                        result = new ThreadUse(provider, f[2], Integer.parseInt(f[0]), Integer.parseInt(f[1]));
                    }
                }
            }
            System.out.println("  " + result.line());
            results.add(result);
        }
        return results;
    }

    /** The child's side of {@link #threads}: live threads before, peak during, outputs verified. */
    static void threadsWorker(String providerName, Path dir) throws Exception {
        java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long chunks = 64;
        List<Path> targets = new ArrayList<>();
        for (int i = 0; i < CONCURRENT_WRITES; i++) {
            targets.add(dir.resolve("threads-" + providerName + "-" + i));
        }
        String outcome = "completed";
        int before;
        int peak;
        try (Provider provider = Providers.create(providerName)) {
            before = threads.getThreadCount();
            threads.resetPeakThreadCount();
            List<java.util.concurrent.CompletableFuture<?>> running = new ArrayList<>();
            for (Path target : targets) {
                running.add(provider.write(target, chunks, false));
            }
            try {
                java.util.concurrent.CompletableFuture.allOf(running.toArray(new java.util.concurrent.CompletableFuture<?>[0]))
                        .get(120, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                outcome = "FAILED: " + CellRunner.describe(e);
            }
            peak = threads.getPeakThreadCount();
            if (outcome.equals("completed")) {
                for (Path target : targets) {
                    String wrong = Payload.verify(target, chunks * Payload.CHUNK_BYTES);
                    if (wrong != null) {
                        outcome = "FAILED: " + wrong;
                        break;
                    }
                }
            }
        } finally {
            for (Path target : targets) {
                Files.deleteIfExists(target);
            }
        }
        System.out.printf(Locale.ROOT, "%s%d %d %s%n", THREADS_PREFIX, before, peak, outcome.replace('\n', ' '));
        System.out.flush();
    }

    public static String threadsMarkdown(List<ThreadUse> results) {
        StringBuilder md = new StringBuilder();
        md.append(CONCURRENT_WRITES).append(" concurrent writes of 64 KiB (64 fresh 1 KiB chunks each), one fresh child JVM "
                + "per provider; live threads before the writes start (JVM, provider set-up) and at the peak:\n\n")
                .append("| Provider | Outcome | Threads before | Peak threads | Added |\n|---|---|---:|---:|---:|\n");
        results.forEach(result -> md.append(result.line()).append('\n'));
        return md.toString();
    }

    public static String markdown(List<Result> results, long sizeBytes) {
        StringBuilder md = new StringBuilder();
        md.append("Write ").append(Cell.formatSize(sizeBytes)).append(" of fresh 1 KiB buffers, ").append(HEAP)
                .append(", one child JVM per provider:\n\n")
                .append("| Provider | Outcome | Time s | Peak heap MiB |\n|---|---|---:|---:|\n");
        results.forEach(result -> md.append(result.line()).append('\n'));
        return md.toString();
    }
}
