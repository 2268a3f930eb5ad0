package io.sluice.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;

import static io.sluice.bench.Pngs.pixels;
import static io.sluice.bench.Pngs.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BarChartTest {

    @TempDir
    Path dir;

    @Test
    void drawsAGroupedLogScaleChartWithMissingValuesAsAPngSizedByItsGroups() throws Exception {
        List<String> cells = List.of("16 KiB\nx1", "16 KiB\nx8", "64 MiB\nx1", "64 MiB\nx8");
        double[][] values = {{120, 900, 2400, 5100}, {80, Double.NaN, 1900, 4000}, {0, 300, 1000, 12000}};
        BarChart chart = new BarChart("write: speed", "MiB/s", cells, List.of("sluice", "rio", "loop"), values, true);
        Path png = dir.resolve("images/speed-write.png");

        chart.writePng(png);

        BufferedImage image = read(png);
        assertEquals(250 + 60 * 4, image.getWidth());
        assertEquals(BarChart.HEIGHT, image.getHeight());
        assertTrue(pixels(image, 0x1f77b4) > 100, "the first series' bars are drawn in its colour");
        assertTrue(pixels(image, 0x2ca02c) > 100, "the third series' bars are drawn in its colour");
    }

    @Test
    void drawsALinearChartAndOneWithNothingToShow() throws Exception {
        Path linear = dir.resolve("memory-stress.png");
        new BarChart(
                        "Peak heap",
                        "MiB",
                        List.of("sluice", "loop\n(OutOfMemoryError)"),
                        List.of("peak heap MiB"),
                        new double[][] {{12, 64}},
                        false)
                .writePng(linear);
        assertEquals(250 + 60 * 2, read(linear).getWidth());
        assertTrue(pixels(read(linear), 0x1f77b4) > 100);

        Path empty = dir.resolve("empty.png");
        new BarChart(
                        "all failed",
                        "MiB/s",
                        List.of("16 KiB\nx1"),
                        List.of("sluice", "rio"),
                        new double[][] {{Double.NaN}, {Double.NaN}},
                        true)
                .writePng(empty);
        assertEquals(BarChart.HEIGHT, read(empty).getHeight());
    }

    @Test
    void refusesValuesThatDoNotMatchTheSeries() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new BarChart("t", "a", List.of("c"), List.of("one", "two"), new double[][] {{1}}, false));
    }
}
