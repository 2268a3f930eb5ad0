package io.sluice.bench.adaptive;

import io.sluice.demand.Demand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The scenario harness end to end with tiny durations: real writes, model, tables, charts. */
class ScenarioSmokeTest {

    @Test
    void harnessRunsMeasuresModelsAndDraws(@TempDir Path dir) throws Exception {
        List<Scenario> scenarios = List.of(Scenario.variableSink(64 * 1024, 0.03), Scenario.slowProducer(1024, 0.05));
        List<StrategyCase> strategies = List.of(
                new StrategyCase("adaptive", Demand.adaptive()),
                new StrategyCase("oneByOne", Demand.oneByOne()),
                new StrategyCase("unbounded", Demand.unbounded()),
                new StrategyCase("paper-literal", new PaperLiteralDemand()));
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        List<ScenarioMain.Comparison> runs = ScenarioMain.run(
                scenarios,
                strategies,
                SharedSink.SMOKE,
                List.of(),
                2,
                dir.resolve("images"),
                dir.resolve("results"),
                1,
                30_000_000L,
                new PrintStream(log, true, StandardCharsets.UTF_8));

        assertEquals(2 * scenarios.size() * strategies.size(), runs.size());
        for (ScenarioMain.Comparison run : runs) {
            assertTrue(run.measured().writtenBytes() > 0, "measured bytes: " + run);
            assertTrue(run.model().writtenBytes() > 0, "modelled bytes: " + run);
            assertTrue(run.measured().requestCalls() > 0, run.toString());
            if (!run.strategy().name().equals("unbounded")
                    && !run.strategy().name().equals("paper-literal")) {
                assertTrue(
                        run.measured().peakQueuedBytes() <= run.scenario().maxQueuedBytes(),
                        "W4 byte cap held: " + run);
            }
        }
        BufferedImage chart = ImageIO.read(
                dir.resolve("images/adaptive-variable-sink-64k.png").toFile());
        assertNotNull(chart, "a readable PNG");
        assertEquals(1000, chart.getWidth());
        assertNotNull(ImageIO.read(
                dir.resolve("images/adaptive-model-variable-sink-64k.png").toFile()));
        assertTrue(log.toString(StandardCharsets.UTF_8).contains("calibration: "), "the costs were measured");
        List<String> csv = Files.readAllLines(dir.resolve("results").resolve(ScenarioMain.RUNS_CSV));
        assertEquals(ScenarioMain.RUNS_HEADER, csv.get(0));
        assertEquals(runs.size() + 1, csv.size());
        assertEquals(
                AdaptiveTables.report(dir.resolve("results")),
                Files.readString(dir.resolve("results/adaptive-report.md")),
                "the report comes from the files alone");
        Map<String, String> blocks = AdaptiveTables.blocks(dir.resolve("results"));
        for (String block : AdaptiveTables.BLOCKS) {
            assertTrue(
                    block.startsWith("adaptive-shared-sink")
                            ? blocks.get(block).contains("Scenario C was not run in this folder.")
                            : blocks.get(block).startsWith("| "),
                    block);
        }
    }
}
