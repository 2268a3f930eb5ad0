package io.sluice.tck.write;

import io.sluice.demand.Demand;
import io.sluice.demand.DemandStrategy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/** One writer configuration under test: a target kind and a demand strategy. */
public final class WriterCase {

    /** Where the writer writes. */
    public enum Target {
        FILE,
        /** A file written {@code WriteOptions.withSync()}: forced, then closed, by the sync finisher. */
        SYNC_FILE,
        /** A file written through a temporary file renamed over it ({@code WriteOptions.withAtomicReplace()}). */
        ATOMIC_FILE,
        CHANNEL,
        STREAM
    }

    private final Target target;
    private final String demandName;
    private final Supplier<DemandStrategy> demand;

    private WriterCase(Target target, String demandName, Supplier<DemandStrategy> demand) {
        this.target = target;
        this.demandName = demandName;
        this.demand = demand;
    }

    /** The file, channel and stream writers under every built-in strategy: 3 x 4 cases. */
    public static List<WriterCase> everyStrategy() {
        List<WriterCase> cases = new ArrayList<>();
        for (Target target : List.of(Target.FILE, Target.CHANNEL, Target.STREAM)) {
            cases.add(new WriterCase(target, "adaptive", Demand::adaptive));
            cases.add(new WriterCase(target, "fixed(16,4)", () -> Demand.fixed(16, 4)));
            cases.add(new WriterCase(target, "oneByOne", Demand::oneByOne));
            cases.add(new WriterCase(target, "unbounded", Demand::unbounded));
        }
        return cases;
    }

    /**
     * The TCK's cases: {@link #everyStrategy()}, and the sync and atomic-replace file writers under
     * the default strategy (adaptive): they differ from the file writer in how the write ends
     * (force on the sync finisher; force, rename and directory force), not in its demand.
     */
    public static List<WriterCase> tck() {
        List<WriterCase> cases = everyStrategy();
        cases.add(new WriterCase(Target.SYNC_FILE, "adaptive", Demand::adaptive));
        cases.add(new WriterCase(Target.ATOMIC_FILE, "adaptive", Demand::adaptive));
        return cases;
    }

    /** The race tests' data: one row per case of {@link #everyStrategy()}. */
    public static Object[][] rows() {
        List<WriterCase> cases = everyStrategy();
        Object[][] rows = new Object[cases.size()][];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = new Object[] {cases.get(i)};
        }
        return rows;
    }

    public Target target() {
        return target;
    }

    public DemandStrategy demand() {
        return demand.get();
    }

    @Override
    public String toString() {
        return target.name().toLowerCase(Locale.ROOT).replace('_', ' ') + " writer, " + demandName;
    }
}
