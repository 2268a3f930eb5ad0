package io.sluice.server.load;

import io.sluice.server.Lane;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LoadChartsTest {

    @TempDir
    Path directory;

    @Test
    void writesOnePngOfTheExpectedSizePerScenarioThatRan() throws Exception {
        List<Row> rows = new ArrayList<>();
        for (int connections : new int[] {64, 256, 1024}) {
            rows.add(RowFixtures.closedLoop("A1", connections, Lane.A, 9000, 20));
            rows.add(RowFixtures.closedLoop("A1", connections, Lane.B, 18000, 12));
            rows.add(RowFixtures.closedLoop("A1", connections, Lane.C, 19000, Double.NaN));
        }
        for (int connections : new int[] {64, 512}) {
            rows.add(RowFixtures.closedLoop("A2", connections, Lane.A, 1900, 370));
            rows.add(RowFixtures.closedLoop("A2", connections, Lane.C, 4700, 190));
        }
        for (Lane lane : Lane.values()) {
            boolean died = lane == Lane.C_UNBOUNDED;
            rows.add(RowFixtures.fastGet(
                    lane,
                    died ? Double.NaN : 7,
                    130,
                    died ? 1052 : 190,
                    null,
                    died ? "server died: OutOfMemoryError" : ""));
        }
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        List<Path> files = LoadCharts.write(
                Scale.FULL,
                "25",
                rows,
                directory.resolve("images"),
                new PrintStream(printed, true, StandardCharsets.UTF_8));

        assertEquals(
                List.of("server-a1.png", "server-a2.png", "server-b.png"),
                files.stream().map(file -> file.getFileName().toString()).toList());
        assertSize(files.get(0), LoadCharts.WIDTH, LoadCharts.CONNECTIONS_HEIGHT);
        assertSize(files.get(1), LoadCharts.WIDTH, LoadCharts.CONNECTIONS_HEIGHT);
        assertSize(files.get(2), LoadCharts.WIDTH, LoadCharts.SLOW_CLIENTS_HEIGHT);
        for (Path file : files) {
            BufferedImage image = ImageIO.read(file.toFile());
            assertTrue(pixels(image, 0xD62728) > 50, file + ": lane A's series in lane A's colour");
            assertTrue(pixels(image, 0x2CA02C) > 50, file + ": lane C's series in lane C's colour");
        }
        assertTrue(pixels(ImageIO.read(files.get(2).toFile()), 0x7F7F7F) > 50, "the died lane still has its RSS bar");
        assertTrue(printed.toString(StandardCharsets.UTF_8).contains("server-b.png"));
    }

    @Test
    void drawsOnlyTheScenariosThatRan() throws Exception {
        List<Row> rows = List.of(RowFixtures.closedLoop("A1", 16, Lane.C, 10000, 8));
        List<Path> files = LoadCharts.write(
                Scale.SMOKE,
                "25",
                rows,
                directory,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(List.of(directory.resolve("server-a1.png")), files);
        assertSize(files.get(0), LoadCharts.WIDTH, LoadCharts.CONNECTIONS_HEIGHT);
    }

    @Test
    void drawsPanelsWithNothingMeasuredInThem() throws Exception {
        List<Row> rows = List.of(
                RowFixtures.closedLoop("A1", 16, Lane.C, 10000, Double.NaN),
                RowFixtures.fastGet(Lane.C, Double.NaN, Double.NaN, Double.NaN, null, "server died: OutOfMemoryError"));
        List<Path> files = LoadCharts.write(
                Scale.SMOKE,
                "25",
                rows,
                directory,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertSize(files.get(0), LoadCharts.WIDTH, LoadCharts.CONNECTIONS_HEIGHT);
        assertSize(files.get(1), LoadCharts.WIDTH, LoadCharts.SLOW_CLIENTS_HEIGHT);
    }

    /** How many pixels have exactly this RGB colour. */
    static int pixels(BufferedImage image, int rgb) {
        int count = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                count += (image.getRGB(x, y) & 0xffffff) == rgb ? 1 : 0;
            }
        }
        return count;
    }

    static void assertSize(Path png, int width, int height) throws Exception {
        BufferedImage image = ImageIO.read(png.toFile());
        assertNotNull(image, png + " is not a readable PNG");
        assertEquals(width, image.getWidth(), png + " width");
        assertEquals(height, image.getHeight(), png + " height");
    }
}
