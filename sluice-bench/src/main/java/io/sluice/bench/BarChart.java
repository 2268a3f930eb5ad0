package io.sluice.bench;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * A grouped bar chart drawn with Java2D: one group per category (a cell), one coloured bar per
 * series (a provider), optionally on a log scale. Missing or failed values ({@code NaN}) are drawn
 * as an "x" at the axis. No library: the bench draws its own charts, headless.
 */
public final class BarChart {

    private static final Color[] PALETTE = {
        new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0xff7f0e),
        new Color(0x9467bd), new Color(0x8c564b), new Color(0x7f7f7f), new Color(0x17becf),
        new Color(0xbcbd22), new Color(0xe377c2), new Color(0x393b79), new Color(0x637939),
    };

    private final String title;
    private final String axisLabel;
    private final List<String> categories;
    private final List<String> series;
    private final double[][] values; // [series][category]
    private final boolean logScale;

    public BarChart(String title, String axisLabel, List<String> categories, List<String> series,
                    double[][] values, boolean logScale) {
        if (values.length != series.size()) {
            throw new IllegalArgumentException("one value row per series: " + values.length + " != " + series.size());
        }
        this.title = title;
        this.axisLabel = axisLabel;
        this.categories = categories;
        this.series = series;
        this.values = values;
        this.logScale = logScale;
    }

    public void writePng(Path file) throws IOException {
        int left = 80;
        int right = 170;
        int top = 50;
        int bottom = 90;
        int barWidth = 9;
        int groupWidth = Math.max(60, series.size() * barWidth + 16);
        int width = left + right + groupWidth * Math.max(1, categories.size());
        int height = 460;
        int plotHeight = height - top - bottom;
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, width, height);
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
            g.drawString(title, left, 28);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));

            double max = 0;
            double minPositive = Double.MAX_VALUE;
            for (double[] row : values) {
                for (double v : row) {
                    if (!Double.isNaN(v) && v > 0) {
                        max = Math.max(max, v);
                        minPositive = Math.min(minPositive, v);
                    }
                }
            }
            if (max == 0) {
                max = 1;
                minPositive = 1;
            }
            Scale scale = logScale
                    ? new LogScale(Math.pow(10, Math.floor(Math.log10(minPositive))), Math.pow(10, Math.ceil(Math.log10(max))))
                    : new LinearScale(niceCeiling(max));

            // grid and axis labels
            g.setStroke(new BasicStroke(1f));
            for (double tick : scale.ticks()) {
                int y = top + plotHeight - (int) Math.round(scale.fraction(tick) * plotHeight);
                g.setColor(new Color(0xdddddd));
                g.drawLine(left, y, width - right, y);
                g.setColor(Color.DARK_GRAY);
                String label = format(tick);
                g.drawString(label, left - 8 - g.getFontMetrics().stringWidth(label), y + 4);
            }
            g.setColor(Color.BLACK);
            g.drawLine(left, top, left, top + plotHeight);
            g.drawLine(left, top + plotHeight, width - right, top + plotHeight);
            AffineTransform saved = g.getTransform();
            g.rotate(-Math.PI / 2);
            g.drawString(axisLabel + (logScale ? " (log scale)" : ""), -(top + plotHeight / 2) - 60, 18);
            g.setTransform(saved);

            // bars
            FontMetrics metrics = g.getFontMetrics();
            for (int c = 0; c < categories.size(); c++) {
                int groupLeft = left + c * groupWidth + 8;
                for (int s = 0; s < series.size(); s++) {
                    double v = values[s][c];
                    int x = groupLeft + s * barWidth;
                    g.setColor(PALETTE[s % PALETTE.length]);
                    if (Double.isNaN(v) || v <= 0) {
                        g.drawString("x", x + 1, top + plotHeight - 2);
                        continue;
                    }
                    int barHeight = Math.max(1, (int) Math.round(scale.fraction(v) * plotHeight));
                    g.fillRect(x, top + plotHeight - barHeight, barWidth - 1, barHeight);
                }
                g.setColor(Color.BLACK);
                String[] lines = categories.get(c).split("\n");
                for (int l = 0; l < lines.length; l++) {
                    int w = metrics.stringWidth(lines[l]);
                    g.drawString(lines[l], groupLeft + (series.size() * barWidth - w) / 2,
                            top + plotHeight + 16 + l * 14);
                }
            }

            // legend
            int legendX = width - right + 14;
            for (int s = 0; s < series.size(); s++) {
                int y = top + s * 18;
                g.setColor(PALETTE[s % PALETTE.length]);
                g.fillRect(legendX, y, 12, 12);
                g.setColor(Color.BLACK);
                g.drawString(series.get(s), legendX + 18, y + 11);
            }
        } finally {
            g.dispose();
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        if (!ImageIO.write(image, "png", file.toFile())) {
            throw new IOException("no PNG writer available for " + file);
        }
    }

    private static String format(double value) {
        if (value >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        if (value >= 1 || value == 0) {
            return String.format(Locale.ROOT, "%.0f", value);
        }
        return String.format(Locale.ROOT, "%.2g", value);
    }

    private static double niceCeiling(double max) {
        double magnitude = Math.pow(10, Math.floor(Math.log10(max)));
        for (double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (step * magnitude >= max) {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }

    private interface Scale {
        double fraction(double value);

        double[] ticks();
    }

    private static final class LinearScale implements Scale {
        private final double max;

        LinearScale(double max) {
            this.max = max;
        }

        @Override
        public double fraction(double value) {
            return Math.min(1, value / max);
        }

        @Override
        public double[] ticks() {
            double[] ticks = new double[6];
            for (int i = 0; i < ticks.length; i++) {
                ticks[i] = max * i / 5;
            }
            return ticks;
        }
    }

    private static final class LogScale implements Scale {
        private final double min;
        private final double max;

        LogScale(double min, double max) {
            this.min = min;
            this.max = max > min ? max : min * 10;
        }

        @Override
        public double fraction(double value) {
            return Math.max(0, Math.min(1, Math.log(value / min) / Math.log(max / min)));
        }

        @Override
        public double[] ticks() {
            int decades = (int) Math.round(Math.log10(max / min));
            double[] ticks = new double[decades + 1];
            for (int i = 0; i <= decades; i++) {
                ticks[i] = min * Math.pow(10, i);
            }
            return ticks;
        }
    }
}
