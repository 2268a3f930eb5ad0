package io.sluice.bench.adaptive;

import io.sluice.demand.Demand;
import io.sluice.testkit.ScheduledPublisher;

import java.util.Locale;

/**
 * Fits the model's {@link ModelCosts} on this machine from three short runs with unlimited ends
 * (so nothing but the pipeline's own costs limits them), none of them a scenario that the model is
 * later validated on:
 * <ul>
 *   <li>{@code unbounded}, 1 KiB and 64 KiB items: the producer's cost per item and per byte;</li>
 *   <li>{@code oneByOne}, 1 KiB items: the round trip request → wake → item → dispatch → write,
 *       whose latency part is split evenly between producer wake and drain dispatch.</li>
 * </ul>
 */
public final class Calibration {

    private Calibration() {
    }

    /** Runs the three calibration runs ({@code runNanos} each) and returns the fitted costs. */
    public static ModelCosts fit(long runNanos) throws InterruptedException {
        ModelCosts base = ModelCosts.buildMachine();
        double small = nanosPerItem(1024, new StrategyCase("unbounded", Demand.unbounded()), runNanos);
        double large = nanosPerItem(64 * 1024, new StrategyCase("unbounded", Demand.unbounded()), runNanos);
        double perByte = Math.max(0, (large - small) / (63 * 1024));
        long itemNanos = Math.max(0, Math.round(small - perByte * 1024));
        double cycle = nanosPerItem(1024, new StrategyCase("oneByOne", Demand.oneByOne()), runNanos);
        long latency = Math.max(1_000, Math.round((cycle - small - base.drainItemNanos() - base.writeCallNanos()) / 2));
        ModelCosts fitted = new ModelCosts(latency, latency, itemNanos, perByte, base.drainItemNanos(),
                base.writeCallNanos());
        System.out.printf(Locale.ROOT, "calibration: unbounded %.2f us/item (1 KiB), %.2f us/item (64 KiB); "
                + "oneByOne %.2f us/item -> %s%n", small / 1e3, large / 1e3, cycle / 1e3, fitted);
        return fitted;
    }

    private static double nanosPerItem(int itemBytes, StrategyCase strategy, long runNanos)
            throws InterruptedException {
        Scenario scenario = new Scenario("calibration-" + Scenario.label(itemBytes), RateSchedule.unlimited(),
                RateSchedule.unlimited(), itemBytes, runNanos, ScheduledPublisher.Emission.ASYNC,
                64L * 1024 * 1024);
        RunResult run = ScenarioRunner.run(scenario, strategy);
        double items = Math.max(1, run.writtenBytes() / (double) itemBytes);
        return run.elapsedNanos() / items;
    }
}
