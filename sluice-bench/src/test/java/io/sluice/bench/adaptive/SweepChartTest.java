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

class SweepChartTest {

    @TempDir
    Path dir;

    @Test
    void plotsEverySettingWithTheRecommendedAndPreSweepOnesMarked() throws Exception {
        Scenario scenario = Scenario.variableSink(64 * 1024, 0.03);
        List<SweepMain.Scored> scored = new ArrayList<>();
        scored.add(scored(SweepMain.RECOMMENDED, scenario, 100, 40));
        scored.add(scored(SweepMain.PRE_SWEEP, scenario, 90, 60));
        for (int i = 0; i < 20; i++) {
            scored.add(scored(new SweepMain.Setting(1 + i, 1024, 1, 1, 2, 2, 1024), scenario, 50 + 2 * i, 5 + 40 * i));
        }
        RunResult oneByOne = result(scenario, 80, 800);
        SweepMain.Sweep sweep = new SweepMain.Sweep(List.of(scenario), scored, List.of(oneByOne), List.of(oneByOne),
                null, 1, null);
        Path png = dir.resolve("images/adaptive-sweep.png");

        SweepChart.write(png, sweep, SweepMain.RECOMMENDED);

        BufferedImage image = read(png);
        assertEquals(SweepChart.WIDTH, image.getWidth());
        assertEquals(SweepChart.HEIGHT, image.getHeight());
        assertTrue(pixels(image, 0xdc1e1e) > 20, "the recommended setting is marked red");
        assertTrue(pixels(image, 0xf08c00) > 20, "the pre-sweep defaults are marked orange");
    }

    private static SweepMain.Scored scored(SweepMain.Setting setting, Scenario scenario, int mib, long calls) {
        return new SweepMain.Scored(setting, List.of(result(scenario, mib, calls)));
    }

    private static RunResult result(Scenario scenario, int mib, long calls) {
        long peak = scenario.maxQueuedBytes() * (calls % 9) / 10;
        return new RunResult(scenario.name(), "s", 1_000_000_000L, mib * 1024L * 1024, peak, 16, calls, List.of());
    }
}
