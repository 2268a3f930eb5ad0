package io.sluice.bench.adaptive;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.sluice.bench.Pngs.pixels;
import static io.sluice.bench.Pngs.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChartWriterTest {

    @TempDir
    Path dir;

    @Test
    void stacksOnePanelPerRunIncludingAnUnboundedWindow() throws Exception {
        Scenario scenario = Scenario.variableSink(64 * 1024, 0.03);
        List<RunResult> runs = List.of(run("adaptive", 16), run("unbounded", Long.MAX_VALUE), run("oneByOne", 1));
        Path png = dir.resolve("images/adaptive-variable-sink-64k.png");

        ChartWriter.write(png, "measured: " + scenario.name(), scenario, runs);

        BufferedImage image = read(png);
        assertEquals(ChartWriter.WIDTH, image.getWidth());
        assertEquals(3 * ChartWriter.PANEL_HEIGHT, image.getHeight());
        assertTrue(pixels(image, 0xe67814) > 50, "the window line is drawn in its colour");
        assertTrue(pixels(image, 0xebebeb) > 10_000, "the slow-sink band (2 s to 4 s) is drawn");
    }

    @Test
    void drawsARunWithoutSamples() throws Exception {
        Path png = dir.resolve("empty.png");
        ChartWriter.write(
                png,
                "model: nothing",
                Scenario.variableSink(1024, 0.03),
                List.of(new RunResult("s", "adaptive", 1_000_000_000L, 0, 0, 0, 0, List.of())));
        assertEquals(ChartWriter.PANEL_HEIGHT, read(png).getHeight());
    }

    private static RunResult run(String strategy, long window) {
        List<RunResult.Sample> samples = new ArrayList<>();
        for (int i = 0; i <= 100; i++) {
            samples.add(new RunResult.Sample(
                    i * 40_000_000L, (i % 20) * 64 * 1024L, window, Math.min(window, i % 7), i * 1024 * 1024L));
        }
        return new RunResult(
                "variable-sink-64k", strategy, 4_000_000_000L, 100 * 1024 * 1024L, 19 * 64 * 1024L, 6, 300, samples);
    }
}
