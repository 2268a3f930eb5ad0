package io.sluice.bench.adaptive;

import io.sluice.demand.AdaptiveDemand;
import io.sluice.demand.Demand;
import io.sluice.demand.DemandStrategy;

import java.util.List;
import java.util.Objects;

/** A named demand strategy under comparison. */
public record StrategyCase(String name, DemandStrategy strategy) {

    public StrategyCase {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(strategy, "strategy");
    }

    /**
     * The constants the sweep of lab/docs/ADAPTIVE.md §5 recommended, now the core defaults: amount 16 in [16, 1024],
     * shift 1 in [1, 1], factors 4 and 4, shrinking no lower than 256 KiB worth of items.
     */
    public static AdaptiveDemand recommendedAdaptive() {
        return Demand.adaptive()
                .withShift(1, 1, 1)
                .withAmount(16, 16, 1024)
                .withFactors(4, 4)
                .withMinBatchBytes(256 * 1024);
    }

    /** The strategies every scenario runs (lab/docs/ADAPTIVE.md §3). */
    public static List<StrategyCase> all() {
        return List.of(
                new StrategyCase("adaptive", Demand.adaptive()),
                new StrategyCase("adaptive-recommended", recommendedAdaptive()),
                new StrategyCase("fixed(4,1)", Demand.fixed(4, 1)),
                new StrategyCase("fixed(32,2)", Demand.fixed(32, 2)),
                new StrategyCase("fixed(256,3)", Demand.fixed(256, 3)),
                new StrategyCase("oneByOne", Demand.oneByOne()),
                new StrategyCase("unbounded", Demand.unbounded()),
                new StrategyCase("paper-literal", new PaperLiteralDemand()));
    }
}
