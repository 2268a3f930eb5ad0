package io.sluice.bench.adaptive;

import io.sluice.demand.Demand;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DemandSimulationTest {

    private static final StrategyCase ADAPTIVE = new StrategyCase("adaptive", Demand.adaptive());

    @Test
    void theModelIsDeterministicForASeed() {
        Scenario scenario = Scenario.bothVariable(64 * 1024, 0.5);
        RunResult first = DemandSimulation.run(scenario, ADAPTIVE, ModelCosts.buildMachine(), 42);
        RunResult again = DemandSimulation.run(scenario, ADAPTIVE, ModelCosts.buildMachine(), 42);
        assertEquals(first, again, "same seed, same run, sample for sample");
        RunResult other = DemandSimulation.run(scenario, ADAPTIVE, ModelCosts.buildMachine(), 43);
        assertNotEquals(first.series(), other.series(), "the seed drives the latencies");
    }

    @Test
    void aSinkBoundRunWritesAtTheSinksRate() {
        // no overhead, producer far faster than a constant 100 MiB/s sink: every bounded strategy
        // keeps the sink busy, so the model must give the sink's rate
        Scenario scenario = new Scenario("sink-bound", RateSchedule.constantMiBps(1000), RateSchedule.constantMiBps(100),
                64 * 1024, 1_000_000_000L, ScheduledPublisher.Emission.ASYNC, 1024 * 1024);
        for (StrategyCase strategy : StrategyCase.all()) {
            RunResult run = DemandSimulation.run(scenario, strategy, ModelCosts.free(), 1);
            assertEquals(100, run.mibPerSecond(), 1.0, strategy.name());
        }
    }

    @Test
    void theByteCapBoundsEveryStrategyButUnboundedAndTheLiteralRule() {
        Scenario scenario = Scenario.variableSink(64 * 1024, 0.5);
        for (StrategyCase strategy : StrategyCase.all()) {
            RunResult run = DemandSimulation.run(scenario, strategy, ModelCosts.buildMachine(), 1);
            boolean bounded = !strategy.name().equals("unbounded") && !strategy.name().equals("paper-literal");
            assertEquals(bounded, run.peakQueuedBytes() <= scenario.maxQueuedBytes(),
                    strategy.name() + " peak " + run.peakQueuedBytes());
        }
    }

    @Test
    void aSynchronousProducerEmitsOnTheDrain() {
        Scenario scenario = Scenario.slowProducer(64 * 1024, 0.1).withEmission(ScheduledPublisher.Emission.SYNC);
        RunResult run = DemandSimulation.run(scenario, ADAPTIVE, ModelCosts.buildMachine(), 1);
        assertEquals(40, run.mibPerSecond(), 2.0, "paced by the producer");
        assertTrue(run.peakQueuedBytes() <= scenario.maxQueuedBytes());
    }
}
