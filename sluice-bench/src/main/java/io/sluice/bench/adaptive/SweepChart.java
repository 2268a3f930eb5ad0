package io.sluice.bench.adaptive;

import javax.imageio.ImageIO;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The sweep as a scatter plot: each setting's mean peak queued bytes (fraction of the cap, x)
 * against its worst-case throughput relative to the best setting (y); blue when its request calls
 * stay within 1/8 of oneByOne's, grey otherwise; the recommended setting red, the defaults at the
 * time of the sweep orange.
 */
final class SweepChart {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 560;
    private static final int LEFT = 70;
    private static final int RIGHT = 30;
    private static final int TOP = 50;
    private static final int BOTTOM = 60;
    private static final double Y_MIN = 0.4;

    private SweepChart() {
    }

    static void write(Path file, SweepMain.Sweep sweep, SweepMain.Setting recommended) throws IOException {
        System.setProperty("java.awt.headless", "true");
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, HEIGHT);
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
            g.drawString("Sweep of the adaptive constants (model, " + sweep.scored().size() + " settings x "
                    + sweep.scenarios().size() + " scenarios)", LEFT, 22);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            g.drawString("blue: request calls <= 1/8 of oneByOne's in every scenario; grey: more; red: shipped defaults; "
                    + "orange: defaults before the sweep", LEFT, 38);
            int plotW = WIDTH - LEFT - RIGHT;
            int plotH = HEIGHT - TOP - BOTTOM;
            double xMax = Math.max(0.1, sweep.scored().stream().mapToDouble(sweep::meanPeakFraction).max().orElse(1));
            g.setColor(Color.GRAY);
            g.drawRect(LEFT, TOP, plotW, plotH);
            for (int i = 0; i <= 6; i++) {
                double y = Y_MIN + (1 - Y_MIN) * i / 6;
                int py = TOP + plotH - (int) (plotH * (y - Y_MIN) / (1 - Y_MIN));
                g.setColor(new Color(230, 230, 230));
                g.drawLine(LEFT + 1, py, LEFT + plotW - 1, py);
                g.setColor(Color.BLACK);
                g.drawString(String.format(Locale.ROOT, "%.2f", y), LEFT - 34, py + 4);
            }
            int p95 = TOP + plotH - (int) (plotH * (0.95 - Y_MIN) / (1 - Y_MIN));
            g.setColor(new Color(200, 60, 60));
            g.drawLine(LEFT + 1, p95, LEFT + plotW - 1, p95);
            g.drawString("95%", LEFT + plotW - 28, p95 - 3);
            g.setColor(Color.BLACK);
            for (int i = 0; i <= 5; i++) {
                double x = xMax * i / 5;
                int px = LEFT + (int) (plotW * x / xMax);
                g.drawString(String.format(Locale.ROOT, "%.2f", x), px - 10, TOP + plotH + 16);
            }
            g.drawString("mean peak queued bytes / byte cap", LEFT + plotW / 2 - 90, HEIGHT - 18);
            g.rotate(-Math.PI / 2);
            g.drawString("worst-case throughput / best setting", -(TOP + plotH / 2 + 100), 16);
            g.rotate(Math.PI / 2);
            for (SweepMain.Scored s : sweep.scored()) {
                boolean fewCalls = sweep.maxCallsRatio(s) <= SweepMain.CALLS_LIMIT;
                dot(g, s, sweep, xMax, plotW, plotH, fewCalls ? new Color(60, 110, 200, 140) : new Color(150, 150, 150, 90), 5);
            }
            for (SweepMain.Scored s : sweep.scored()) {
                if (s.setting().equals(SweepMain.PRE_SWEEP)) {
                    dot(g, s, sweep, xMax, plotW, plotH, new Color(240, 140, 0), 11);
                }
                if (s.setting().equals(recommended)) {
                    dot(g, s, sweep, xMax, plotW, plotH, new Color(220, 30, 30), 11);
                }
            }
        } finally {
            g.dispose();
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        if (!ImageIO.write(image, "png", file.toFile())) {
            throw new IOException("no PNG writer available for " + file);
        }
    }

    private static void dot(Graphics2D g, SweepMain.Scored s, SweepMain.Sweep sweep, double xMax, int plotW, int plotH,
                            Color color, int size) {
        double x = sweep.meanPeakFraction(s);
        double y = Math.max(Y_MIN, sweep.minThroughputRatio(s));
        int px = LEFT + (int) (plotW * x / xMax);
        int py = TOP + plotH - (int) (plotH * (y - Y_MIN) / (1 - Y_MIN));
        g.setColor(color);
        g.fillOval(px - size / 2, py - size / 2, size, size);
    }
}
