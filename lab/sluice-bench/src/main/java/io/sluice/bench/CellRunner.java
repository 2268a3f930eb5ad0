package io.sluice.bench;

import io.sluice.lab.Load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * Runs one cell in this JVM: warm-up rounds, then measured rounds; each round runs every provider
 * once, in an order rotated by round and fork so no provider always follows the same neighbour.
 * One invocation starts all {@code parallelism} operations, then waits for all of them; only that
 * is timed; every output is verified after it (reads check their bytes as they arrive). A provider
 * whose output is wrong, that throws or that times out is FAILED for the cell and not run again in
 * it. The machine's {@link Load} is measured around the whole cell and recorded in its samples.
 */
public final class CellRunner {

    private final Path dir;
    private final Sample.Origin origin;
    private final Probe probe;
    private final long minSampleNanos;
    private final Consumer<String> progress;
    private final Map<Long, Path> sources = new HashMap<>();

    public CellRunner(Path dir, Sample.Origin origin, Probe probe, long minSampleMillis, Consumer<String> progress) {
        this.dir = dir;
        this.origin = origin;
        this.probe = probe;
        this.minSampleNanos = minSampleMillis * 1_000_000;
        this.progress = progress;
    }

    /** Runs {@code cell} for the providers supporting its operation: the measured samples and every failed one. */
    public List<Sample> run(Cell cell, List<Provider> providers, int warmupRounds, int measuredRounds, int fork)
            throws IOException {
        List<Provider> runnable = providers.stream()
                .filter(provider -> provider.supports(cell.op()))
                .toList();
        Path source = (cell.op() == Op.READ || cell.op() == Op.COPY) ? source(cell.sizeBytes()) : null;
        List<Path> targets = IntStream.range(0, cell.parallelism())
                .mapToObj(index -> dir.resolve("out-" + index))
                .toList();
        List<Sample> samples = new ArrayList<>();
        Set<String> failed = new LinkedHashSet<>();
        int rounds = warmupRounds + measuredRounds;
        Load.Meter load = new Load.Meter();
        for (int round = 0; round < rounds; round++) {
            boolean measured = round >= warmupRounds;
            StringBuilder line = new StringBuilder(String.format(
                    "  %-22s %s %d/%d:",
                    cell.label(),
                    measured ? "round " : "warmup",
                    measured ? round - warmupRounds + 1 : round + 1,
                    measured ? measuredRounds : warmupRounds));
            for (int k = 0; k < runnable.size(); k++) {
                Provider provider = runnable.get((k + round + fork) % runnable.size());
                if (failed.contains(provider.name())) {
                    continue;
                }
                Sample sample = sample(cell, provider, source, targets, fork, round);
                if (!sample.ok()) {
                    failed.add(provider.name());
                }
                if (measured || !sample.ok()) {
                    samples.add(sample);
                }
                line.append(' ')
                        .append(provider.name())
                        .append(' ')
                        .append(
                                sample.ok()
                                        ? String.format(
                                                "%.0f", cell.totalBytes() / (1024.0 * 1024.0) / (sample.nanos() / 1e9))
                                        : "FAILED");
            }
            progress.accept(line.toString());
        }
        Load measuredLoad = load.stop();
        deleteAll(targets);
        samples.replaceAll(sample -> sample.with(measuredLoad));
        return samples;
    }

    /**
     * One sample, after a GC: invocations repeated until their timed parts add up to
     * {@code minSampleNanos} (short cells would otherwise measure timer noise), each preceded by
     * deleting the outputs and followed by verifying them (size and CRC32C), both untimed. The
     * sample reports the mean time and costs per invocation and the peaks over all.
     */
    private Sample sample(Cell cell, Provider provider, Path source, List<Path> targets, int fork, int round)
            throws IOException {
        System.gc();
        long timed = 0;
        Probe.Cost costs = Probe.Cost.NONE;
        int invocations = 0;
        String status = "OK";
        while (status.equals("OK") && (invocations == 0 || timed < minSampleNanos)) {
            deleteAll(targets);
            Probe.Start start = probe.start();
            long began = System.nanoTime();
            status = invoke(cell, provider, source, targets);
            timed += System.nanoTime() - began;
            costs = costs.and(probe.stop(start));
            invocations++;
            for (int i = 0; i < targets.size() && status.equals("OK") && cell.op() != Op.READ; i++) {
                String wrong = Payload.verify(targets.get(i), cell.sizeBytes());
                status = wrong == null ? status : "FAILED: " + wrong;
            }
        }
        return new Sample(
                origin,
                cell,
                provider.name(),
                fork,
                round,
                timed / invocations,
                costs.cpuNanos() / invocations,
                costs.allocatedBytes() / invocations,
                costs.peakHeapBytes(),
                costs.peakDirectBytes(),
                costs.peakThreads(),
                Load.UNKNOWN,
                status);
    }

    /** Starts {@code parallelism} operations and waits for all: the timed part. */
    private static String invoke(Cell cell, Provider provider, Path source, List<Path> targets) {
        List<CompletableFuture<?>> running = new ArrayList<>(cell.parallelism());
        try {
            for (Path target : targets) {
                running.add(provider.start(cell.op(), source, target, cell.sizeBytes()));
            }
            CompletableFuture.allOf(running.toArray(new CompletableFuture<?>[0]))
                    .get(timeoutSeconds(cell), TimeUnit.SECONDS);
            return "OK";
        } catch (TimeoutException e) {
            running.forEach(future -> future.cancel(true));
            return "FAILED: timed out after " + timeoutSeconds(cell) + " s";
        } catch (ExecutionException e) {
            return "FAILED: " + describe(e.getCause());
        } catch (RuntimeException | LinkageError | OutOfMemoryError e) {
            running.forEach(future -> future.cancel(true));
            return "FAILED: " + describe(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + cell.label(), e);
        }
    }

    static String describe(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null
                && root.getCause() != root
                && (root instanceof java.util.concurrent.CompletionException
                        || root instanceof ExecutionException
                        || root instanceof java.io.UncheckedIOException)) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }

    /** Generous: a minute plus 5 MiB/s for the invocation's bytes. */
    static long timeoutSeconds(Cell cell) {
        return 60 + cell.totalBytes() / (5L * 1024 * 1024);
    }

    private Path source(long sizeBytes) throws IOException {
        Path source = sources.get(sizeBytes);
        if (source == null) {
            source = dir.resolve("source-" + sizeBytes);
            Payload.createFile(source, sizeBytes);
            String wrong = Payload.verify(source, sizeBytes);
            if (wrong != null) {
                throw new IllegalStateException("the source file is wrong: " + wrong);
            }
            sources.put(sizeBytes, source);
        }
        return source;
    }

    /** Deletes the source files this runner created. */
    public void deleteSources() throws IOException {
        deleteAll(List.copyOf(sources.values()));
        sources.clear();
    }

    private static void deleteAll(List<Path> paths) throws IOException {
        for (Path path : paths) {
            Files.deleteIfExists(path);
        }
    }
}
