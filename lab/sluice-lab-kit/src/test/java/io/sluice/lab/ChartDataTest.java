package io.sluice.lab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every chart the lab draws has its data beside it, and the build fails for a chart that is not
 * the one its data file records or that has none: the repository's charts are checked here, and
 * each tool's {@code report --check} compares the data of the charts it drew from a run with what
 * it draws from that run now.
 */
class ChartDataTest {

    @TempDir
    Path dir;

    private static CategoryChart bars() {
        CategoryChart chart = new CategoryChartBuilder()
                .width(300)
                .height(200)
                .title("read: speed")
                .yAxisTitle("MiB/s")
                .build();
        chart.addSeries("sluice", List.of("1 KiB\nx1", "1 MiB x1"), Arrays.asList(12.5, null));
        chart.addSeries("loop, \"8 KiB\"", List.of("1 KiB\nx1", "1 MiB x1"), List.of(10.0, 2048.0));
        return chart;
    }

    @Test
    void theDataFileHoldsEveryPointOfEveryPanelAndTheHashOfThePng() throws Exception {
        XYChart lines = new XYChartBuilder()
                .width(300)
                .height(200)
                .xAxisTitle("time, s")
                .yAxisTitle("items")
                .build();
        lines.addSeries("window", new double[] {0, 0.5}, new double[] {4, Double.NaN});
        Path png = dir.resolve("images/chart.png");

        Png.write(List.of(bars(), lines), 2, 1, png);

        assertEquals(dir.resolve("images/chart.png.csv"), ChartData.of(png));
        String data = Files.readString(ChartData.of(png));
        assertEquals(
                "# the points chart.png shows, one a row; an empty y is a point it does not draw\n"
                        + "# png sha256: " + ChartData.sha256(Files.readAllBytes(png)) + "\n"
                        + "# panel 1: read: speed; x: ; y: MiB/s\n"
                        + "# panel 2: ; x: time, s; y: items\n"
                        + "panel,series,x,y\n"
                        + "1,\"sluice\",\"1 KiB x1\",12.5\n"
                        + "1,\"sluice\",\"1 MiB x1\",\n"
                        + "1,\"loop, \"\"8 KiB\"\"\",\"1 KiB x1\",10\n"
                        + "1,\"loop, \"\"8 KiB\"\"\",\"1 MiB x1\",2048\n"
                        + "2,\"window\",\"0\",4\n"
                        + "2,\"window\",\"0.5\",\n",
                data);
        assertEquals(List.of(), ChartData.problems(dir));
    }

    @Test
    void aValueIsWrittenToTwelveSignificantDigitsTheSameOnEveryJdk() {
        assertEquals("19.6067359333", ChartData.number(19.606735933343373));
        assertEquals("0.1", ChartData.number(0.1));
        assertEquals("0.0000002", ChartData.number(2e-7));
        assertEquals("123456789012000000000", ChartData.number(1.23456789012e20));
        assertEquals("-3", ChartData.number(-3.0));
        assertEquals("Infinity", ChartData.number(Double.POSITIVE_INFINITY));
    }

    @Test
    void aStampNamesTheRunAndIsNotPartOfWhatTheChartShows() throws Exception {
        Path png = dir.resolve("chart.png");
        Png.write(List.of(bars()), 1, 1, png);
        String shown = ChartData.shown(ChartData.of(png));

        ChartData.stamp(png, "sluice-bench", "lab/results/run");
        ChartData.stamp(png, "sluice-bench", "lab/results/other");

        assertEquals(
                Optional.of("sluice-bench from lab/results/other"),
                ChartData.drawnBy(ChartData.of(png)),
                "a second stamp replaces the first");
        assertEquals(shown, ChartData.shown(ChartData.of(png)));
        assertEquals(List.of(), ChartData.problems(dir));
    }

    @Test
    void aChartWithoutItsDataOrNotTheOneItRecordsAndDataWithoutAChartAreProblems() throws Exception {
        Png.write(List.of(bars()), 1, 1, dir.resolve("edited.png"));
        Png.write(List.of(bars()), 1, 1, dir.resolve("gone.png"));
        Files.write(dir.resolve("edited.png"), new byte[] {1, 2, 3});
        Files.delete(dir.resolve("gone.png"));
        Files.write(dir.resolve("bare.png"), new byte[] {1});
        Files.createDirectories(dir.resolve("target"));
        Files.write(dir.resolve("target/built.png"), new byte[] {1});

        assertEquals(
                List.of(
                        "bare.png: no data file (bare.png.csv); draw it again with the tool that drew it",
                        "edited.png: not the chart its data file records (# png sha256: differs); draw it again"
                                + " with the tool that drew it",
                        "gone.png.csv: the data of a chart that is not there"),
                ChartData.problems(dir));
    }

    @Test
    void everyChartOfTheRepositoryHasItsDataAndIsTheChartItRecords() throws Exception {
        Path root = GeneratedBlocks.repositoryRoot(Path.of(""))
                .orElseThrow(() ->
                        new AssertionError("no repository above " + Path.of("").toAbsolutePath()));
        assertTrue(Files.isDirectory(root.resolve("lab/images")), "the repository's charts are in lab/images");

        assertEquals(List.of(), ChartData.problems(root));
    }
}
