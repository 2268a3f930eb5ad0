package io.sluice.bench.adaptive;

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

    /** adaptive, three fixed settings, oneByOne, unbounded and the paper's literal rule. */
    public static List<StrategyCase> all() {
        return List.of(
                new StrategyCase("adaptive", Demand.adaptive()),
                new StrategyCase("fixed(4,1)", Demand.fixed(4, 1)),
                new StrategyCase("fixed(32,2)", Demand.fixed(32, 2)),
                new StrategyCase("fixed(256,3)", Demand.fixed(256, 3)),
                new StrategyCase("oneByOne", Demand.oneByOne()),
                new StrategyCase("unbounded", Demand.unbounded()),
                new StrategyCase("paper-literal", new PaperLiteralDemand()));
    }
}
