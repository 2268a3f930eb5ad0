package io.sluice.bench.adaptive;

import io.sluice.WriteOptions;
import io.sluice.lab.ScheduledPublisher;

import java.util.List;
import java.util.Objects;

/**
 * One producer → writer → sink set-up, named in tables, CSV and file names: the producer's and the
 * sink's rates, the item size, how long a run lasts (the producer never ends; the write is
 * cancelled then), where the producer emits from, and the writer's byte cap.
 */
public record Scenario(
        String name,
        RateSchedule producer,
        RateSchedule sink,
        int itemBytes,
        long durationNanos,
        ScheduledPublisher.Emission emission,
        long maxQueuedBytes) {

    public Scenario {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(producer, "producer");
        Objects.requireNonNull(sink, "sink");
        Objects.requireNonNull(emission, "emission");
        if (itemBytes <= 0 || durationNanos <= 0 || maxQueuedBytes <= 0) {
            throw new IllegalArgumentException("itemBytes, durationNanos and maxQueuedBytes must be positive: "
                    + itemBytes + ", " + durationNanos + ", " + maxQueuedBytes);
        }
    }

    /** The sink's fast ↔ slow switch period of {@link #variableSink}, in milliseconds. */
    public static final long SINK_PERIOD_MILLIS = 2000;

    /** Fast producer (300 MiB/s) → sink at 200 MiB/s for 2 s, then 20 MiB/s for 2 s, and so on. */
    public static Scenario variableSink(int itemBytes, double durationScale) {
        return of(
                "variable-sink",
                RateSchedule.constantMiBps(300),
                RateSchedule.stepsMiBps(200, 20, SINK_PERIOD_MILLIS),
                itemBytes,
                6000,
                durationScale);
    }

    /** Producer 120 MiB/s → sink 200 MiB/s for 2 s, then 20 MiB/s for 2 s: the rates straddle. */
    public static Scenario crossingSink(int itemBytes, double durationScale) {
        return of(
                "crossing-sink",
                RateSchedule.constantMiBps(120),
                RateSchedule.stepsMiBps(200, 20, SINK_PERIOD_MILLIS),
                itemBytes,
                6000,
                durationScale);
    }

    /** Slow producer (40 MiB/s) → fast sink (1000 MiB/s). */
    public static Scenario slowProducer(int itemBytes, double durationScale) {
        return of(
                "slow-producer",
                RateSchedule.constantMiBps(40),
                RateSchedule.constantMiBps(1000),
                itemBytes,
                3000,
                durationScale);
    }

    /** Producer 250 ↔ 40 MiB/s every 1.5 s; sink 200 ↔ 20 MiB/s every 2 s, each phase after a 300 ms stall. */
    public static Scenario bothVariable(int itemBytes, double durationScale) {
        return of(
                "both-variable",
                RateSchedule.stepsMiBps(250, 40, 1500),
                RateSchedule.stepsWithStallsMiBps(200, 20, 2000, 300),
                itemBytes,
                4000,
                durationScale);
    }

    /** The demand scenarios: four set-ups × 1 KiB and 64 KiB items. */
    public static List<Scenario> all(double durationScale) {
        return List.of(
                variableSink(64 * 1024, durationScale), variableSink(1024, durationScale),
                crossingSink(64 * 1024, durationScale), crossingSink(1024, durationScale),
                slowProducer(64 * 1024, durationScale), slowProducer(1024, durationScale),
                bothVariable(64 * 1024, durationScale), bothVariable(1024, durationScale));
    }

    /** A copy lasting {@code nanos}. */
    public Scenario withDurationNanos(long nanos) {
        return new Scenario(name, producer, sink, itemBytes, nanos, emission, maxQueuedBytes);
    }

    /** A scenario's family: its name without the item size suffix, e.g. {@code variable-sink}. */
    public static String family(String name) {
        return name.replaceAll("-\\d+[kb]$", "");
    }

    static String label(int itemBytes) {
        return itemBytes % 1024 == 0 ? (itemBytes / 1024) + "k" : itemBytes + "b";
    }

    /** {@code family}'s scenario with an ASYNC producer, the default byte cap, {@code millis} × {@code scale}. */
    private static Scenario of(
            String family, RateSchedule producer, RateSchedule sink, int itemBytes, long millis, double scale) {
        if (!(scale > 0)) {
            throw new IllegalArgumentException("durationScale must be positive, was " + scale);
        }
        return new Scenario(
                family + "-" + label(itemBytes),
                producer,
                sink,
                itemBytes,
                Math.max(1_000_000L, Math.round(millis * 1_000_000L * scale)),
                ScheduledPublisher.Emission.ASYNC,
                WriteOptions.DEFAULT_MAX_QUEUED_BYTES);
    }
}
