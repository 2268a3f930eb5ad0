package io.sluice.server.load;

import io.sluice.ByteChannels;
import io.sluice.ReactiveFile;
import io.sluice.WriteOptions;
import io.sluice.WriteSnapshot;
import io.sluice.demand.Demand;
import io.sluice.demand.DemandStrategy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Scenario C, in process: {@code uploads} concurrent streams of a file into one
 * {@link ThrottledSink} alternating 20 and 200 MiB/s, once per demand strategy. Measures aggregate
 * MiB/s, peak queued bytes summed over the streams, and whether the adaptive window shrinks after
 * every fast-to-slow switch (from {@code WriteListener} snapshots of stream 0).
 * {@code java -cp sluice-server.jar io.sluice.server.load.DemandScenario [smoke|full]}.
 */
public final class DemandScenario {

    private static final double MIB = 1024.0 * 1024.0;

    private DemandScenario() {
    }

    record Result(String strategy, double mibPerSecond, long peakQueuedBytes, int switches, int shrunk) {
    }

    /**
     * Runs scenario C.
     *
     * @param args {@code smoke} (8 x 32 MiB, 0.5 s periods) or {@code full} (8 x 256 MiB, 2 s periods)
     */
    public static void main(String[] args) throws Exception {
        boolean full = args.length > 0 && args[0].equals("full");
        int uploads = 8;
        long bytesEach = (full ? 256L : 32L) * 1024 * 1024;
        long periodNanos = TimeUnit.MILLISECONDS.toNanos(full ? 2000 : 500);
        Path source = Files.createTempFile("sluice-demand-", ".bin");
        try {
            byte[] block = new byte[1024 * 1024];
            new Random(7).nextBytes(block);
            try (var out = Files.newOutputStream(source)) {
                for (long written = 0; written < bytesEach; written += block.length) {
                    out.write(block);
                }
            }
            Map<String, DemandStrategy> strategies = new LinkedHashMap<>();
            strategies.put("adaptive", Demand.adaptive());
            strategies.put("fixed(4,1)", Demand.fixed(4, 1));
            strategies.put("fixed(16,4)", Demand.fixed(16, 4));
            strategies.put("fixed(64,16)", Demand.fixed(64, 16));
            strategies.put("all-at-once", Demand.unbounded());
            List<Result> results = new ArrayList<>();
            System.out.println("scenario C " + (full ? "full" : "smoke") + ": " + uploads + " x "
                    + bytesEach / (1024 * 1024) + " MiB into one sink alternating 200/20 MiB/s every "
                    + TimeUnit.NANOSECONDS.toMillis(periodNanos) + " ms; java=" + Runtime.version());
            System.out.println("| strategy | aggregate MiB/s | peak queued MiB (sum) | window shrank after fast->slow |");
            System.out.println("|---|---:|---:|---|");
            for (Map.Entry<String, DemandStrategy> entry : strategies.entrySet()) {
                Result result = run(entry.getKey(), entry.getValue(), source, uploads, periodNanos);
                results.add(result);
                System.out.printf(Locale.ROOT, "| %s | %.1f | %.1f | %d of %d |%n", result.strategy(),
                        result.mibPerSecond(), result.peakQueuedBytes() / MIB, result.shrunk(), result.switches());
            }
            gates(results, full);
        } finally {
            Files.deleteIfExists(source);
        }
    }

    private static Result run(String name, DemandStrategy strategy, Path source, int uploads, long periodNanos)
            throws Exception {
        ThrottledSink sink = new ThrottledSink(20 * MIB, 200 * MIB, periodNanos);
        AtomicLongArray queued = new AtomicLongArray(uploads);
        AtomicLong peakQueued = new AtomicLong();
        Map<Long, long[]> windowByPeriod = new java.util.concurrent.ConcurrentHashMap<>(); // period -> {last, min}
        List<CompletableFuture<Long>> writes = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < uploads; i++) {
            int index = i;
            // Every strategy keeps the writer's default byte bound except all-at-once, whose point
            // is to have none.
            WriteOptions base = WriteOptions.defaults().withDemand(strategy);
            if (strategy == Demand.unbounded()) {
                base = base.withMaxQueuedBytes(Long.MAX_VALUE / 2);
            }
            WriteOptions options = base
                    .withListener((WriteSnapshot snapshot) -> {
                        queued.set(index, snapshot.queuedBytes());
                        long total = 0;
                        for (int k = 0; k < uploads; k++) {
                            total += queued.get(k);
                        }
                        peakQueued.accumulateAndGet(total, Math::max);
                        if (index == 0) {
                            long window = snapshot.windowItems();
                            windowByPeriod.merge(sink.periodAt(System.nanoTime()), new long[] {window, window},
                                    (old, now) -> new long[] {now[0], Math.min(old[1], now[1])});
                        }
                    });
            writes.add(ByteChannels.write(sink.channel(), ReactiveFile.of(source).read(), options)
                    .toCompletableFuture());
        }
        long bytes = 0;
        for (CompletableFuture<Long> write : writes) {
            bytes += write.get(10, TimeUnit.MINUTES);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        int switches = 0;
        int shrunk = 0;
        for (Map.Entry<Long, long[]> entry : windowByPeriod.entrySet()) {
            long period = entry.getKey();
            long[] slow = windowByPeriod.get(period + 1);
            if (period % 2 == 0 && slow != null) { // a fast period followed by a slow one
                switches++;
                if (slow[1] < entry.getValue()[0]) {
                    shrunk++;
                }
            }
        }
        return new Result(name, bytes / MIB / seconds, peakQueued.get(), switches, shrunk);
    }

    private static void gates(List<Result> results, boolean full) {
        Result adaptive = results.get(0);
        Result unbounded = results.get(results.size() - 1);
        double bestFixed = results.subList(1, results.size() - 1).stream().mapToDouble(Result::mibPerSecond).max()
                .orElse(0);
        int passed = 0;
        int failed = 0;
        List<String> lines = new ArrayList<>();
        boolean[] outcomes = {
            adaptive.mibPerSecond() >= 93,
            adaptive.mibPerSecond() >= 0.95 * bestFixed,
            adaptive.peakQueuedBytes() <= 32L * 1024 * 1024,
            adaptive.switches() > 0 && adaptive.shrunk() == adaptive.switches(),
            unbounded.peakQueuedBytes() >= (full ? 512L * 1024 * 1024 : 0.5 * 8 * 32 * MIB),
        };
        lines.add(String.format(Locale.ROOT, "C adaptive >= 93 MiB/s aggregate: %.1f MiB/s", adaptive.mibPerSecond()));
        lines.add(String.format(Locale.ROOT, "C adaptive >= 0.95x best fixed: %.1f vs %.1f MiB/s",
                adaptive.mibPerSecond(), bestFixed));
        lines.add(String.format(Locale.ROOT, "C adaptive queues <= 32 MiB in total: %.1f MiB",
                adaptive.peakQueuedBytes() / MIB));
        lines.add("C adaptive window shrinks after every fast->slow switch: " + adaptive.shrunk() + " of "
                + adaptive.switches());
        lines.add(String.format(Locale.ROOT, "C control: all-at-once queues >= %s: %.1f MiB",
                full ? "512 MiB" : "half of all bytes (smoke)", unbounded.peakQueuedBytes() / MIB));
        for (int i = 0; i < outcomes.length; i++) {
            System.out.println((outcomes[i] ? "PASS " : "FAIL ") + lines.get(i));
            if (outcomes[i]) {
                passed++;
            } else {
                failed++;
            }
        }
        System.out.println(passed + " passed, " + failed + " failed");
    }
}
