package io.sluice.bench;

import io.sluice.bench.providers.Providers;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A named benchmark plan: the cells, the providers, and how many forks, warm-up and measured
 * rounds. Every field can be overridden from the command line. Each profile but {@code smoke}
 * measures at least {@link Row#MIN_SAMPLES} samples per provider per cell (forks x measured rounds).
 */
public record Profile(
        String name,
        List<Cell> cells,
        List<String> providers,
        int forks,
        int warmupRounds,
        int measuredRounds,
        long minSampleMillis) {

    public Profile {
        if (warmupRounds < 0 || measuredRounds < 1) {
            throw new IllegalArgumentException(
                    "need warmup >= 0 and iterations >= 1, were " + warmupRounds + " and " + measuredRounds);
        }
        if (minSampleMillis < 0) {
            throw new IllegalArgumentException("min-sample-ms must not be negative, was " + minSampleMillis);
        }
    }

    private static final String QUICK =
            "WRITE:1M:1,WRITE:10M:1,WRITE:1M:10,WRITE:1K:100," + "READ:10M:1,READ:1M:10,COPY:10M:1,COPY:1M:10";

    /** The paper's grid, reduced where one invocation would move more than 1 GiB (lab/docs/BENCHMARKS.md shows `full`). */
    private static final String STANDARD = "WRITE:1K:1,WRITE:1K:10,WRITE:1K:100,WRITE:1K:1000,"
            + "WRITE:1M:1,WRITE:1M:10,WRITE:1M:100,WRITE:10M:1,WRITE:10M:10,WRITE:100M:1,"
            + "READ:1K:1,READ:1K:10,READ:1K:100,READ:1K:1000,"
            + "READ:1M:1,READ:1M:10,READ:1M:100,READ:10M:1,READ:10M:10,READ:100M:1,"
            + "COPY:1K:1,COPY:1K:10,COPY:1K:100,COPY:1K:1000,"
            + "COPY:1M:1,COPY:1M:10,COPY:1M:100,COPY:10M:1,COPY:10M:10,COPY:100M:1,"
            + "WRITE_SYNC:100M:1";

    /** The paper's whole grid: 1 KiB, 1 MiB, 10 MiB, 100 MiB at 1, 10, 100 (1 KiB also at 1,000). */
    private static final String FULL = grid("WRITE") + grid("READ") + grid("COPY") + "WRITE_SYNC:100M:1";

    private static final String DEMAND = "WRITE:1K:100,WRITE:1M:1,WRITE:1M:10,WRITE:10M:1,WRITE:100M:1";

    /** The read path's cells (1 MiB to 100 MiB at 1, 10, 100; 100 MiB x 100 would move 10 GiB) and copies. */
    private static final String READ = "READ:1M:1,READ:1M:10,READ:1M:100,READ:10M:1,READ:10M:10,READ:10M:100,"
            + "READ:100M:1,READ:100M:10,COPY:1M:10,COPY:10M:1,COPY:100M:1";

    /** Small files, bound by per-operation cost: 1 KiB and 64 KiB at 1, 100 and 1,000 at once. */
    private static final String SMALL = Stream.of("WRITE", "READ", "COPY")
            .flatMap(op -> Stream.of("1K", "64K")
                    .flatMap(size -> Stream.of(1, 100, 1000).map(parallelism -> op + ":" + size + ":" + parallelism)))
            .collect(Collectors.joining(","));

    private static final String SMOKE = "WRITE:16K:2,READ:16K:2,COPY:16K:2,WRITE_SYNC:16K:1";

    private static String grid(String op) {
        return Stream.of("1K", "1M", "10M", "100M")
                        .flatMap(size ->
                                Stream.of(1, 10, 100).map(parallelism -> op + ":" + size + ":" + parallelism + ","))
                        .collect(Collectors.joining())
                + op + ":1K:1000,";
    }

    public static Profile named(String name) {
        return switch (name) {
            case "smoke" -> new Profile(name, Cell.parseAll(SMOKE), Providers.comparison(), 0, 0, 1, 0);
            case "quick" -> new Profile(name, Cell.parseAll(QUICK), Providers.quick(), 1, 1, 5, 250);
            case "standard" -> new Profile(name, Cell.parseAll(STANDARD), Providers.comparison(), 2, 2, 3, 300);
            case "full" -> new Profile(name, Cell.parseAll(FULL), Providers.comparison(), 3, 3, 5, 1000);
            case "read" -> new Profile(name, Cell.parseAll(READ), Providers.readChoices(), 1, 2, 5, 300);
            case "demand" -> new Profile(name, Cell.parseAll(DEMAND), Providers.demandScenario(), 1, 1, 5, 500);
            case "small" -> new Profile(name, Cell.parseAll(SMALL), Providers.smallFiles(), 2, 2, 5, 300);
            default ->
                throw new IllegalArgumentException(
                        "unknown profile '" + name + "'; known: smoke, quick, standard, full, read, demand, small");
        };
    }

    /** The cells in the form {@code --cells} reads. */
    public String cellSpecs() {
        return cells.stream().map(Cell::spec).collect(Collectors.joining(","));
    }
}
