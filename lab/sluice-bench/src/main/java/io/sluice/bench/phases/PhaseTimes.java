package io.sluice.bench.phases;

import io.sluice.bench.Cell;
import io.sluice.bench.Op;
import io.sluice.bench.Payload;
import io.sluice.bench.Probe;
import io.sluice.bench.Provider;
import io.sluice.bench.providers.Providers;
import io.sluice.lab.BuildInfo;
import io.sluice.lab.Load;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One small file's operation timed phase by phase, for sluice and the plain loops: each operation
 * runs alone (x1), on files whose every stat, open, size, I/O call and close is timed by a
 * {@link TimedFileSystem}. An operation's time splits into
 * <ul>
 * <li>{@code dispatch}: from the call that starts it (subscribe and first request included) to its
 *     first file-system call: the executor hops before any work;</li>
 * <li>{@code check}, {@code open}, {@code size}, {@code io}, {@code close}, {@code other-fs}: the
 *     time inside those calls (a stat or access check; the open; a channel's size; reads, writes
 *     and transfers; the close; deletes, moves and attribute writes);</li>
 * <li>{@code between}: the time between those calls: the library's own work while it runs, its
 *     hand-offs between passes included;</li>
 * <li>{@code completion}: from the last call's return to the operation's future completing.</li>
 * </ul>
 * The phases add up to {@code total}. A call through {@link java.io.File} (sluice stats a file of
 * the default file system that way) is not seen, and counts as {@code between}. Besides, in batches on plain paths (the timing's own
 * objects would count otherwise), each operation's heap allocated and CPU time across the JVM.
 * Rounds interleave the providers of a cell, their order rotated by round.
 */
public final class PhaseTimes {

    /** The phases an operation's time splits into, in the order they happen. */
    static final List<String> PHASES =
            List.of("dispatch", "check", "open", "size", "io", "close", "other-fs", "between", "completion", "total");

    /** The cells measured by default: every operation on a 1 KiB and a 64 KiB file. */
    static final String CELLS = "READ:1K:1,READ:64K:1,WRITE:1K:1,WRITE:64K:1,COPY:1K:1,COPY:64K:1";

    /** CSV header of {@code phases.csv}: one line per cell, provider and phase. */
    static final String HEADER = "op,size_bytes,provider,phase,calls_per_op,mean_us,p50_us,p90_us";

    private final Path dir;
    private final int operations;
    private final int rounds;
    private final Calls calls = new Calls();
    private final TimedFileSystem timed = new TimedFileSystem(calls);

    PhaseTimes(Path dir, int operations, int rounds) {
        this.dir = dir;
        this.operations = operations;
        this.rounds = rounds;
    }

    /** One provider's measured operations in one cell: per phase, each operation's nanoseconds and calls. */
    static final class Timings {
        final Map<String, List<Long>> nanos = new LinkedHashMap<>();
        final Map<String, Long> callCount = new LinkedHashMap<>();
        long operations;
        long allocatedBytes;
        long cpuNanos;
        long plainOperations;

        Timings() {
            PHASES.forEach(phase -> nanos.put(phase, new ArrayList<>()));
        }

        double callsPerOp(String phase) {
            return operations == 0 ? 0 : callCount.getOrDefault(phase, 0L) / (double) operations;
        }

        double mean(String phase) {
            return nanos.get(phase).stream()
                            .mapToLong(Long::longValue)
                            .average()
                            .orElse(Double.NaN)
                    / 1000;
        }

        double percentile(String phase, double fraction) {
            long[] sorted = nanos.get(phase).stream()
                    .mapToLong(Long::longValue)
                    .sorted()
                    .toArray();
            return sorted.length == 0
                    ? Double.NaN
                    : sorted[Math.min(sorted.length - 1, (int) (fraction * sorted.length))] / 1000.0;
        }
    }

    /**
     * {@code phases [--cells READ:1K:1,...] [--providers ...] [--ops N] [--rounds N] [--out DIR] [--dir TMP]}:
     * writes {@code phases.csv} and {@code phases.md} into {@code --out}.
     */
    public static void main(Map<String, String> options) throws Exception {
        BuildInfo.requireCommitted(options.containsKey("allow-dirty"));
        List<String> jvm = ManagementFactory.getRuntimeMXBean().getInputArguments();
        if (!heapFixed(jvm)) {
            throw new IllegalStateException("phases times each operation in this JVM, so its heap must be fixed as the"
                    + " bench's forks' is: run it as java -jar lab.jar -J-Xms2g -J-Xmx2g bench phases ... (this JVM has "
                    + jvm + "); with a heap G1 sizes as it goes, a provider that allocates a buffer per operation"
                    + " waits for the heap's growth inside its timed operations");
        }
        List<Cell> cells = Cell.parseAll(options.getOrDefault("cells", CELLS));
        List<String> providers = options.containsKey("providers")
                ? List.of(options.get("providers").split(","))
                : Providers.smallFiles();
        int operations = Integer.parseInt(options.getOrDefault("ops", "1000"));
        int rounds = Integer.parseInt(options.getOrDefault("rounds", "6"));
        Path out = Files.createDirectories(Path.of(options.getOrDefault("out", "target/bench-results/phases")));
        Path dir = options.containsKey("dir")
                ? Files.createDirectories(Path.of(options.get("dir")))
                : Files.createTempDirectory("sluice-phases-");
        long began = System.nanoTime();
        Load.Meter load = new Load.Meter();
        Map<Cell, Map<String, Timings>> results = new LinkedHashMap<>();
        PhaseTimes phases = new PhaseTimes(dir, operations, rounds);
        for (Cell cell : cells) {
            results.put(cell, phases.measure(cell, providers));
        }
        Load measured = load.stop();
        double minutes = (System.nanoTime() - began) / 60e9;
        StringBuilder csv = new StringBuilder(HEADER).append('\n');
        results.forEach((cell, byProvider) ->
                byProvider.forEach((provider, timings) -> PHASES.forEach(phase -> csv.append(String.format(
                        Locale.ROOT,
                        "%s,%d,%s,%s,%.2f,%.2f,%.2f,%.2f%n",
                        cell.op(),
                        cell.sizeBytes(),
                        provider,
                        phase,
                        timings.callsPerOp(phase),
                        timings.mean(phase),
                        timings.percentile(phase, 0.5),
                        timings.percentile(phase, 0.9))))));
        Files.writeString(out.resolve("phases.csv"), csv, StandardCharsets.UTF_8);
        String markdown = markdown(results, operations, rounds, measured, minutes);
        Files.writeString(out.resolve("phases.md"), markdown, StandardCharsets.UTF_8);
        System.out.printf(
                Locale.ROOT, "%s%ndone in %.1f min; phases.csv and phases.md in %s%n", markdown, minutes, out);
    }

    /** Every provider of {@code cell} that supports its operation, interleaved round by round. */
    Map<String, Timings> measure(Cell cell, List<String> names) throws Exception {
        List<Provider> providers = new ArrayList<>();
        for (String name : names) {
            Provider provider = Providers.create(name);
            if (provider.supports(cell.op())) {
                providers.add(provider);
            } else {
                provider.close();
            }
        }
        Path source = dir.resolve("phases-source-" + cell.sizeBytes());
        Path target = dir.resolve("phases-target");
        Payload.createFile(source, cell.sizeBytes());
        Map<String, Timings> results = new LinkedHashMap<>();
        providers.forEach(provider -> results.put(provider.name(), new Timings()));
        try (Probe probe = new Probe()) {
            for (int round = -1; round < rounds; round++) { // round -1 warms up
                for (int k = 0; k < providers.size(); k++) {
                    Provider provider = providers.get(Math.floorMod(k + round, providers.size()));
                    Timings timings = round < 0 ? new Timings() : results.get(provider.name());
                    plain(cell, provider, source, target, timings, probe);
                    for (int i = 0; i < operations; i++) {
                        timed(cell, provider, source, target, timings);
                    }
                }
                System.out.printf("  %s round %d/%d%n", cell.label(), round + 1, rounds);
            }
        } finally {
            for (Provider provider : providers) {
                provider.close();
            }
            Files.deleteIfExists(source);
            Files.deleteIfExists(target);
        }
        return results;
    }

    /**
     * A batch of operations on the plain paths, for their heap and CPU per operation; the deletes
     * before writes and copies are counted with them, the same for every provider.
     */
    private void plain(Cell cell, Provider provider, Path source, Path target, Timings timings, Probe probe)
            throws Exception {
        System.gc();
        Probe.Start start = probe.start();
        for (int i = 0; i < operations; i++) {
            if (cell.op() != Op.READ) {
                Files.deleteIfExists(target);
            }
            provider.start(cell.op(), source, target, cell.sizeBytes()).get(1, TimeUnit.MINUTES);
        }
        Probe.Cost total = probe.stop(start);
        if (cell.op() != Op.READ) {
            String wrong = Payload.verify(target, cell.sizeBytes());
            if (wrong != null) {
                throw new IllegalStateException(provider.name() + " wrote a wrong file: " + wrong);
            }
        }
        timings.allocatedBytes += total.allocatedBytes();
        timings.cpuNanos += total.cpuNanos();
        timings.plainOperations += operations;
    }

    /**
     * Whether {@code jvmArguments} fix the heap's size: the last {@code -Xms} and {@code -Xmx} given,
     * both present and equal, as the bench's forks have them ({@code Worker.DEFAULT_JVM_ARGS}).
     */
    static boolean heapFixed(List<String> jvmArguments) {
        String initial = null;
        String maximum = null;
        for (String argument : jvmArguments) {
            if (argument.startsWith("-Xms")) {
                initial = argument.substring(4);
            } else if (argument.startsWith("-Xmx")) {
                maximum = argument.substring(4);
            }
        }
        return initial != null && initial.equalsIgnoreCase(maximum);
    }

    /** One operation on the timed paths, its phases added to {@code timings}. */
    private void timed(Cell cell, Provider provider, Path source, Path target, Timings timings) throws Exception {
        if (cell.op() != Op.READ) {
            Files.deleteIfExists(target);
        }
        calls.take();
        long[] completed = new long[1];
        long began = System.nanoTime();
        CompletableFuture<?> operation =
                provider.start(cell.op(), timed.path(source), timed.path(target), cell.sizeBytes());
        operation
                .whenComplete((result, error) -> completed[0] = System.nanoTime())
                .get(1, TimeUnit.MINUTES);
        List<Calls.Call> made = calls.take();
        if (made.isEmpty()) {
            throw new IllegalStateException(provider.name() + " made no file-system call through the timed paths");
        }
        Map<Calls.Kind, Long> inCalls = new EnumMap<>(Calls.Kind.class);
        Arrays.stream(Calls.Kind.values()).forEach(kind -> inCalls.put(kind, 0L));
        long first = made.stream().mapToLong(Calls.Call::began).min().orElseThrow();
        long last = made.stream().mapToLong(Calls.Call::ended).max().orElseThrow();
        for (Calls.Call call : made) {
            inCalls.merge(call.kind(), call.ended() - call.began(), Long::sum);
            timings.callCount.merge(phase(call.kind()), 1L, Long::sum);
        }
        long spanInCalls = inCalls.values().stream().mapToLong(Long::longValue).sum();
        long total = completed[0] - began;
        Map<String, Long> phases = new LinkedHashMap<>();
        phases.put("dispatch", first - began);
        for (Calls.Kind kind : Calls.Kind.values()) {
            phases.put(phase(kind), inCalls.get(kind));
        }
        phases.put("between", (last - first) - spanInCalls);
        phases.put("completion", completed[0] - last);
        phases.put("total", total);
        phases.forEach((phase, nanos) -> timings.nanos.get(phase).add(nanos));
        timings.operations++;
    }

    private static String phase(Calls.Kind kind) {
        return kind == Calls.Kind.STAT
                ? "check"
                : kind == Calls.Kind.OTHER ? "other-fs" : kind.name().toLowerCase(Locale.ROOT);
    }

    static String markdown(
            Map<Cell, Map<String, Timings>> results, int operations, int rounds, Load load, double minutes) {
        StringBuilder md = new StringBuilder("# One small file's operation, phase by phase\n\n");
        md.append(String.format(
                Locale.ROOT,
                "Commit %s, JDK %s; %d rounds of %d operations per provider and cell, "
                        + "one at a time; %s; %.1f min.%n%n",
                BuildInfo.commit(),
                System.getProperty("java.version"),
                rounds,
                operations,
                load.noisy() ? "NOISY machine (" + load + ")" : "quiet machine",
                minutes));
        md.append("Median µs per operation (calls per operation in brackets); heap and CPU per operation from "
                        + "batches on plain paths.\n\n| cell | provider | ")
                .append(String.join(" | ", PHASES))
                .append(" | heap B/op | CPU µs/op |\n|---|---|")
                .append("---|".repeat(PHASES.size() + 2))
                .append('\n');
        results.forEach((cell, byProvider) -> byProvider.forEach((provider, timings) -> {
            md.append("| ").append(cell.label()).append(" | ").append(provider).append(" |");
            for (String phase : PHASES) {
                double calls = timings.callsPerOp(phase);
                md.append(String.format(Locale.ROOT, " %.1f", timings.percentile(phase, 0.5)))
                        .append(calls > 0 ? String.format(Locale.ROOT, " (%.1f)", calls) : "")
                        .append(" |");
            }
            md.append(String.format(
                    Locale.ROOT,
                    " %.0f | %.1f |%n",
                    timings.allocatedBytes / (double) Math.max(1, timings.plainOperations),
                    timings.cpuNanos / 1000.0 / Math.max(1, timings.plainOperations)));
        }));
        md.append("\nA median per phase: the phases' medians need not add up to the total's. The CSV has means "
                + "and 90th percentiles too.\n");
        return md.toString();
    }
}
