package io.sluice.tck.write;

import io.sluice.demand.Demand;
import io.sluice.demand.DemandStrategy;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** One writer configuration under test: a target kind and a demand strategy. */
public final class WriterCase {

    /** Where the writer writes. */
    public enum Target { FILE, CHANNEL, STREAM }

    private final Target target;
    private final String demandName;
    private final Supplier<DemandStrategy> demand;

    private WriterCase(Target target, String demandName, Supplier<DemandStrategy> demand) {
        this.target = target;
        this.demandName = demandName;
        this.demand = demand;
    }

    /** Every target under every built-in strategy: 3 x 4 cases. */
    public static List<WriterCase> all() {
        List<WriterCase> cases = new ArrayList<>();
        for (Target target : Target.values()) {
            cases.add(new WriterCase(target, "adaptive", Demand::adaptive));
            cases.add(new WriterCase(target, "fixed(16,4)", () -> Demand.fixed(16, 4)));
            cases.add(new WriterCase(target, "oneByOne", Demand::oneByOne));
            cases.add(new WriterCase(target, "unbounded", Demand::unbounded));
        }
        return cases;
    }

    /** The factories' data: one row per case. */
    public static Object[][] rows() {
        List<WriterCase> cases = all();
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
        return target.name().toLowerCase(java.util.Locale.ROOT) + " writer, " + demandName;
    }
}
