package io.sluice.lab;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes the bench's and the server harness's XChart charts as PNG files, each with its data file
 * ({@link ChartData}), headless: {@code java.awt.headless} is set to true unless the launcher chose
 * otherwise.
 */
public final class Png {

    static {
        System.setProperty("java.awt.headless", System.getProperty("java.awt.headless", "true"));
    }

    private Png() {}

    /**
     * Writes {@code charts}, of one size, row by row as a {@code rows} by {@code cols} grid in one PNG, and
     * beside it the chart's data file ({@link ChartData}).
     */
    public static void write(List<? extends Chart<?, ?>> charts, int rows, int cols, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        BitmapEncoder.saveBitmap(charts, rows, cols, png, BitmapEncoder.BitmapFormat.PNG);
        byte[] bytes = png.toByteArray();
        ChartData.write(charts, file, bytes); // first: a chart it cannot describe is not written at all
        Files.write(file, bytes);
    }
}
