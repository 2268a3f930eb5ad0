package io.sluice.bench.adaptive;

import io.sluice.demand.Demand;
import io.sluice.lab.ScheduledPublisher;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DemandSimulationTest {

    private static final StrategyCase ADAPTIVE = new StrategyCase("adaptive", Demand.adaptive());

    @Test
    void theModelIsDeterministicForASeed() {
        Scenario scenario = Scenario.bothVariable(64 * 1024, 0.5);
        RunResult first = DemandSimulation.run(scenario, ADAPTIVE, TestCosts.TYPICAL, 42);
        RunResult again = DemandSimulation.run(scenario, ADAPTIVE, TestCosts.TYPICAL, 42);
        assertEquals(first, again, "same seed, same run, sample for sample");
        RunResult other = DemandSimulation.run(scenario, ADAPTIVE, TestCosts.TYPICAL, 43);
        assertNotEquals(first.series(), other.series(), "the seed drives the latencies");
    }

    @Test
    void aLatencyBoundRunPaysItsRoundTripNotThePacingAsWell() {
        // oneByOne, 1 KiB items, ends faster than the round trip: wake 5 + item 5 + dispatch 5 +
        // write call 3 = 18 us per item, 54.3 MiB/s. The real ends park only for waits of 200 us
        // or more, running ahead of their schedules meanwhile, so the pacing (3.3 us producer,
        // 4.9 us sink per item) does not add to the round trip; added, it would give 37 MiB/s.
        Scenario scenario = new Scenario(
                "latency",
                RateSchedule.constantMiBps(300),
                RateSchedule.constantMiBps(200),
                1024,
                500_000_000L,
                ScheduledPublisher.Emission.ASYNC,
                1 << 20);
        RunResult run = DemandSimulation.run(
                scenario,
                new StrategyCase("oneByOne", Demand.oneByOne()),
                new ModelCosts(5_000, 5_000, 5_000, 0, 0, 3_000, 0),
                1);
        assertEquals(1024 / 18e-6 / RateSchedule.MIB, run.mibPerSecond(), 2.5, "MiB/s");
    }

    @Test
    void aSinkBoundRunWritesAtTheSinksRate() {
        // no overhead, producer 10x faster than a constant 100 MiB/s sink: unbounded keeps the sink
        // busy all the time; a bounded strategy idles it only while the first item of a refill is
        // produced (64 KiB at 1000 MiB/s = 62 us per window; the smallest window here, oneByOne's
        // one item, is written in 625 us), so never more than 10% below and never above
        Scenario scenario = new Scenario(
                "sink-bound",
                RateSchedule.constantMiBps(1000),
                RateSchedule.constantMiBps(100),
                64 * 1024,
                1_000_000_000L,
                ScheduledPublisher.Emission.ASYNC,
                1024 * 1024);
        for (StrategyCase strategy : StrategyCase.all()) {
            RunResult run = DemandSimulation.run(scenario, strategy, TestCosts.FREE, 1);
            if (strategy.name().equals("unbounded")) {
                assertEquals(100, run.mibPerSecond(), 0.5, strategy.name());
            } else {
                assertTrue(
                        run.mibPerSecond() >= 90 && run.mibPerSecond() <= 100.5,
                        strategy.name() + ": " + run.mibPerSecond());
            }
        }
    }

    @Test
    void theByteCapBoundsEveryStrategyButUnbounded() {
        Scenario scenario = Scenario.variableSink(64 * 1024, 0.5);
        for (StrategyCase strategy : StrategyCase.all()) {
            RunResult run = DemandSimulation.run(scenario, strategy, TestCosts.TYPICAL, 1);
            boolean bounded = !strategy.name().equals("unbounded"); // as in the writer: the literal rule is capped too
            assertEquals(
                    bounded,
                    run.peakQueuedBytes() <= scenario.maxQueuedBytes(),
                    strategy.name() + " peak " + run.peakQueuedBytes());
        }
    }

    @Test
    void aSynchronousProducerEmitsOnTheDrain() {
        Scenario slow = Scenario.slowProducer(64 * 1024, 0.1);
        Scenario scenario = new Scenario(
                slow.name(),
                slow.producer(),
                slow.sink(),
                slow.itemBytes(),
                slow.durationNanos(),
                ScheduledPublisher.Emission.SYNC,
                slow.maxQueuedBytes());
        RunResult run = DemandSimulation.run(scenario, ADAPTIVE, TestCosts.TYPICAL, 1);
        // a blocking source: the drain produces, then writes (1 MiB at 1000 MiB/s), so the
        // producer's 40 MiB/s is an upper bound that the model approaches but cannot reach
        assertTrue(
                run.mibPerSecond() > 30 && run.mibPerSecond() <= 40.5, "paced by the producer: " + run.mibPerSecond());
        assertTrue(run.peakQueuedBytes() <= scenario.maxQueuedBytes());
    }
}
