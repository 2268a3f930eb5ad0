package io.sluice.bench.adaptive;

import io.sluice.demand.Demand;
import io.sluice.demand.DemandStrategy;
import io.sluice.lab.PacingClock;
import io.sluice.lab.ScheduledPublisher;
import io.sluice.lab.ThrottledChannel;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * Measures the model's {@link ModelCosts} on this machine, in the run that then uses them, with
 * unlimited ends (so nothing but the pipeline's own costs limits a run) and on no scenario the
 * model is later compared with; lab/docs/ADAPTIVE.md §4 says which run gives which cost.
 */
public final class Calibration {

    private static final int PARKS = 200;

    private Calibration() {}

    /** Runs the calibration ({@code runNanos} per run), prints what it measured, returns the costs. */
    public static ModelCosts fit(long runNanos, PrintStream out) throws InterruptedException, IOException {
        double small = nanosPerItem(1024, Demand.unbounded(), ScheduledPublisher.Emission.ASYNC, runNanos);
        double large = nanosPerItem(64 * 1024, Demand.unbounded(), ScheduledPublisher.Emission.ASYNC, runNanos);
        double perByte = Math.max(0, (large - small) / (63 * 1024));
        long itemNanos = Math.max(0, Math.round(small - perByte * 1024));
        double writeCall = writeCallNanos(runNanos);
        double sync = nanosPerItem(1024, Demand.oneByOne(), ScheduledPublisher.Emission.SYNC, runNanos);
        double async = nanosPerItem(1024, Demand.oneByOne(), ScheduledPublisher.Emission.ASYNC, runNanos);
        long drainItem = Math.max(0, Math.round(sync - small - writeCall));
        long latency = Math.max(0, Math.round((async - sync) / 2));
        long overshoot = Math.round(parkOvershootNanos());
        ModelCosts fitted =
                new ModelCosts(latency, latency, itemNanos, perByte, drainItem, Math.round(writeCall), overshoot);
        out.printf(
                Locale.ROOT,
                "calibration: unbounded %.2f us/item (1 KiB), %.2f us/item (64 KiB); write call "
                        + "%.2f us; oneByOne %.2f us/item (SYNC), %.2f us/item (ASYNC); park overshoot %.1f us -> %s%n",
                small / 1e3,
                large / 1e3,
                writeCall / 1e3,
                sync / 1e3,
                async / 1e3,
                overshoot / 1e3,
                fitted);
        return fitted;
    }

    private static double nanosPerItem(
            int itemBytes, DemandStrategy strategy, ScheduledPublisher.Emission emission, long runNanos)
            throws InterruptedException {
        Scenario scenario = new Scenario(
                "calibration-" + Scenario.label(itemBytes),
                RateSchedule.unlimited(),
                RateSchedule.unlimited(),
                itemBytes,
                runNanos,
                emission,
                64L * 1024 * 1024);
        RunResult run = RunRecorder.measure(scenario, new StrategyCase("calibration", strategy));
        double items = Math.max(1, run.writtenBytes() / (double) itemBytes);
        return run.elapsedNanos() / items;
    }

    private static double writeCallNanos(long runNanos) throws IOException {
        try (ThrottledChannel channel = new ThrottledChannel(RateSchedule.unlimited(), PacingClock.system())) {
            ByteBuffer[] item = {ByteBuffer.allocate(1024)};
            long start = System.nanoTime();
            long calls = 0;
            long end = start + runNanos / 4;
            long now;
            do {
                for (int i = 0; i < 1000; i++) {
                    item[0].clear();
                    channel.write(item, 0, 1);
                }
                calls += 1000;
            } while ((now = System.nanoTime()) < end);
            return (now - start) / (double) calls;
        }
    }

    private static double parkOvershootNanos() {
        PacingClock clock = PacingClock.system();
        long late = 0;
        for (int i = 0; i < PARKS; i++) {
            long deadline = clock.nanoTime() + PacingClock.SystemClock.MIN_PARK_NANOS;
            clock.sleepUntil(deadline, () -> false);
            late += Math.max(0, clock.nanoTime() - deadline);
        }
        return late / (double) PARKS;
    }
}
