package io.sluice.server.load;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;

import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The load charts' colours and style, and their PNG files (XChart, headless:
 * {@code java.awt.headless} is set to true unless the launcher chose otherwise).
 */
final class ChartFiles {

    /** One colour per lane (A, B, C, C-unbounded) and per series elsewhere, in this order. */
    static final Color[] SERIES_COLOURS = {new Color(0xD6, 0x27, 0x28), new Color(0x1F, 0x77, 0xB4),
        new Color(0x2C, 0xA0, 0x2C), new Color(0x7F, 0x7F, 0x7F)};
    static final Color INK = new Color(0x33, 0x33, 0x33);

    static {
        System.setProperty("java.awt.headless", System.getProperty("java.awt.headless", "true"));
    }

    private ChartFiles() {
    }

    /** The colour of {@code index}'s series (a lane's ordinal). */
    static Color colour(int index) {
        return SERIES_COLOURS[index % SERIES_COLOURS.length];
    }

    /** White background, a 12-point bold title (long titles fit a panel), the given title shown or not. */
    static void style(Styler styler, boolean titled) {
        styler.setChartBackgroundColor(Color.WHITE).setChartTitleVisible(titled)
                .setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 12)).setSeriesColors(SERIES_COLOURS);
    }

    /**
     * Writes {@code charts}, all of one size, as a grid of {@code rows} by {@code cols} in one PNG,
     * creating the directory if needed.
     */
    static void png(List<? extends Chart<?, ?>> charts, int rows, int cols, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (OutputStream out = Files.newOutputStream(file)) {
            BitmapEncoder.saveBitmap(charts, rows, cols, out, BitmapEncoder.BitmapFormat.PNG);
        }
    }
}
