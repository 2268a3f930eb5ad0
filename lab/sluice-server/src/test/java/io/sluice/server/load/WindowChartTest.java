package io.sluice.server.load;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WindowChartTest {

    @TempDir
    Path directory;

    @Test
    void drawsTheAdaptiveSeriesOfACsvIntoAPngOfTheExpectedSize() throws Exception {
        List<String> lines = new ArrayList<>();
        lines.add(WindowChart.HEADER);
        for (int t = 0; t <= 8000; t += 100) {
            int sink = (t / 2000) % 2 == 0 ? 200 : 20;
            lines.add("adaptive," + t + "," + sink + "," + (sink == 200 ? 16 : 4) + "," + (t % 1000) * 1024);
            lines.add("\"fixed(16,4)\"," + t + "," + sink + ",16," + 8 * 1024 * 1024); // as WindowTrace quotes it
        }
        Path csv = Files.write(directory.resolve("series.csv"), lines);
        Path png = directory.resolve("out/server-c-window.png");

        int drawn = WindowChart.draw(WindowChart.read(csv), "adaptive", png);

        assertEquals(81, drawn, "only the adaptive rows");
        LoadChartsTest.assertSize(png, WindowChart.WIDTH, WindowChart.HEIGHT);
        BufferedImage image = ImageIO.read(png.toFile());
        assertTrue(LoadChartsTest.pixels(image, 0x1F77B4) > 100, "the window line");
        assertTrue(LoadChartsTest.pixels(image, 0x2CA02C) > 100, "the queued line");
    }

    @Test
    void readsQuotedStrategyNamesAsWindowTraceWritesThemAndRefusesAShortLineByNumber() throws Exception {
        Path csv = Files.write(
                directory.resolve("quoted.csv"),
                List.of(WindowChart.HEADER, "\"fixed(16,4)\",1.5,200,20,0", "unpaced adaptive,1,2,3,4"));
        assertEquals(
                List.of(
                        new WindowChart.Sample("fixed(16,4)", 1.5, 200, 20, 0),
                        new WindowChart.Sample("unpaced adaptive", 1, 2, 3, 4)),
                WindowChart.read(csv));
        Files.write(csv, List.of(WindowChart.HEADER, "adaptive,1,2,3"));
        IOException refused = assertThrows(IOException.class, () -> WindowChart.read(csv));
        assertTrue(refused.getMessage().contains(":2: expected 5 fields"), refused.getMessage());
    }

    @Test
    void refusesACsvWithAnotherHeaderSayingWhatItExpected() throws Exception {
        Path csv = Files.write(directory.resolve("bad.csv"), List.of("t,window", "1,2"));
        IOException refused = assertThrows(IOException.class, () -> WindowChart.read(csv));
        assertTrue(refused.getMessage().contains(WindowChart.HEADER), refused.getMessage());
    }

    @Test
    void saysWhichStrategiesExistWhenTheAskedOneHasNoSamples() throws Exception {
        Path csv = Files.write(directory.resolve("other.csv"), List.of(WindowChart.HEADER, "fixed,0,200,16,0"));
        IllegalArgumentException refused = assertThrows(
                IllegalArgumentException.class,
                () -> WindowChart.draw(WindowChart.read(csv), "adaptive", directory.resolve("x.png")));
        assertTrue(refused.getMessage().contains("[fixed]"), refused.getMessage());
    }
}
