package io.sluice.bench;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes XChart charts as PNG files, headless: {@code java.awt.headless} is set to true unless the
 * launcher chose otherwise, so the charts render without a display.
 */
public final class ChartFiles {

    static {
        System.setProperty("java.awt.headless", System.getProperty("java.awt.headless", "true"));
    }

    private ChartFiles() {
    }

    /** Writes {@code chart} to {@code file}, creating the directory if needed. */
    public static void png(Chart<?, ?> chart, Path file) throws IOException {
        png(List.of(chart), 1, 1, file);
    }

    /**
     * Writes {@code charts}, all of one size, as a grid of {@code rows} by {@code cols} in one PNG
     * ({@code rows} times their height high, {@code cols} times their width wide).
     */
    public static void png(List<? extends Chart<?, ?>> charts, int rows, int cols, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (OutputStream out = Files.newOutputStream(file)) {
            BitmapEncoder.saveBitmap(charts, rows, cols, out, BitmapEncoder.BitmapFormat.PNG);
        }
    }
}
