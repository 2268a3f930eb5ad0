package io.sluice.bench.adaptive;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;

/**
 * Draws time series as a PNG with Java2D: one panel per run, stacked, sharing the time axis.
 * Each panel shows the queued bytes (filled, left axis), the controller's window and the
 * outstanding demand (lines, right axis, items), over a grey band wherever the sink is slower
 * than its fastest rate. Headless: needs no display.
 */
public final class ChartWriter {

    private static final int WIDTH = 1000;
    private static final int PANEL_HEIGHT = 150;
    private static final int LEFT = 80;
    private static final int RIGHT = 80;
    private static final int TOP = 58;
    private static final int GAP = 34;
    private static final Color QUEUE = new Color(70, 130, 200);
    private static final Color WINDOW = new Color(230, 120, 20);
    private static final Color OUTSTANDING = new Color(40, 150, 60);
    private static final Color SLOW_BAND = new Color(235, 235, 235);

    private ChartWriter() {
    }

    /** Writes {@code runs} (same scenario) to {@code file} under {@code title}. */
    public static void write(Path file, String title, Scenario scenario, List<RunResult> runs) throws IOException {
        System.setProperty("java.awt.headless", "true");
        int height = TOP + runs.size() * (PANEL_HEIGHT + GAP) + 30;
        BufferedImage image = new BufferedImage(WIDTH, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, height);
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
            g.drawString(title, LEFT, 20);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            legend(g);
            for (int i = 0; i < runs.size(); i++) {
                panel(g, TOP + i * (PANEL_HEIGHT + GAP) + 14, scenario, runs.get(i));
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

    private static void legend(Graphics2D g) {
        int x = LEFT;
        int y = 38;
        swatch(g, x, y, QUEUE, "queued bytes (left)");
        swatch(g, x + 140, y, WINDOW, "window, items (right)");
        swatch(g, x + 290, y, OUTSTANDING, "outstanding, items (right)");
    }

    private static void swatch(Graphics2D g, int x, int y, Color color, String label) {
        g.setColor(color);
        g.fillRect(x, y - 9, 12, 10);
        g.setColor(Color.BLACK);
        g.drawString(label, x + 16, y);
    }

    private static void panel(Graphics2D g, int top, Scenario scenario, RunResult run) {
        int plotWidth = WIDTH - LEFT - RIGHT;
        long duration = run.elapsedNanos();
        // slow-sink bands
        double fastest = scenario.sink().segments().stream().mapToDouble(RateSchedule.Segment::bytesPerSecond)
                .max().orElse(0);
        g.setColor(SLOW_BAND);
        int steps = plotWidth;
        for (int px = 0; px < steps; px++) {
            long t = duration * px / steps;
            if (scenario.sink().bytesPerSecondAt(t) < fastest) {
                g.fillRect(LEFT + px, top, 1, PANEL_HEIGHT);
            }
        }
        g.setColor(Color.GRAY);
        g.drawRect(LEFT, top, plotWidth, PANEL_HEIGHT);
        g.setColor(Color.BLACK);
        g.drawString(String.format(Locale.ROOT, "%s: %.1f MiB/s, peak queued %s, peak outstanding %s, %d request calls",
                run.strategy(), run.mibPerSecond(), bytes(run.peakQueuedBytes()), items(run.peakOutstandingItems()),
                run.requestCalls()), LEFT, top - 4);

        List<RunResult.Sample> series = run.series();
        long maxQueued = Math.max(1, series.stream().mapToLong(RunResult.Sample::queuedBytes).max().orElse(1));
        long maxItems = Math.max(1, series.stream()
                .flatMapToLong(s -> java.util.stream.LongStream.of(bounded(s.windowItems()), bounded(s.outstandingItems())))
                .max().orElse(1));
        // left axis labels
        g.drawString(bytes(maxQueued), 4, top + 10);
        g.drawString("0", LEFT - 14, top + PANEL_HEIGHT);
        g.drawString(maxItems + " it", WIDTH - RIGHT + 4, top + 10);
        boolean unboundedWindow = series.stream().anyMatch(s -> s.windowItems() == Long.MAX_VALUE);
        if (unboundedWindow) {
            g.drawString("window: ∞", WIDTH - RIGHT + 4, top + 26);
        }
        // queued: filled area
        Path2D.Double area = new Path2D.Double();
        area.moveTo(LEFT, top + PANEL_HEIGHT);
        for (RunResult.Sample s : series) {
            area.lineTo(x(s.nanos(), duration, plotWidth), y(s.queuedBytes(), maxQueued, top));
        }
        if (!series.isEmpty()) {
            area.lineTo(x(series.get(series.size() - 1).nanos(), duration, plotWidth), top + PANEL_HEIGHT);
        }
        area.closePath();
        g.setColor(new Color(QUEUE.getRed(), QUEUE.getGreen(), QUEUE.getBlue(), 150));
        g.fill(area);
        line(g, series, RunResult.Sample::outstandingItems, maxItems, duration, plotWidth, top, OUTSTANDING, 1f);
        if (!unboundedWindow) {
            line(g, series, RunResult.Sample::windowItems, maxItems, duration, plotWidth, top, WINDOW, 1.6f);
        }
        // time axis
        g.setColor(Color.BLACK);
        long seconds = duration / 1_000_000_000L;
        for (long s = 0; s <= seconds; s++) {
            double px = x(s * 1_000_000_000L, duration, plotWidth);
            g.drawLine((int) px, top + PANEL_HEIGHT, (int) px, top + PANEL_HEIGHT + 3);
            g.drawString(s + " s", (int) px - 6, top + PANEL_HEIGHT + 14);
        }
    }

    private static void line(Graphics2D g, List<RunResult.Sample> series, ToLongFunction<RunResult.Sample> value,
                             long max, long duration, int plotWidth, int top, Color color, float width) {
        Path2D.Double path = new Path2D.Double();
        boolean started = false;
        for (RunResult.Sample s : series) {
            long v = value.applyAsLong(s);
            if (v == Long.MAX_VALUE) {
                started = false;
                continue;
            }
            double px = x(s.nanos(), duration, plotWidth);
            double py = y(v, max, top);
            if (started) {
                path.lineTo(px, py);
            } else {
                path.moveTo(px, py);
                started = true;
            }
        }
        g.setColor(color);
        g.setStroke(new BasicStroke(width));
        g.draw(path);
        g.setStroke(new BasicStroke(1f));
    }

    private static long bounded(long items) {
        return items == Long.MAX_VALUE ? 0 : items;
    }

    private static double x(long nanos, long duration, int plotWidth) {
        return LEFT + (double) plotWidth * Math.min(nanos, duration) / duration;
    }

    private static double y(long value, long max, int top) {
        return top + PANEL_HEIGHT - (double) PANEL_HEIGHT * Math.min(value, max) / max;
    }

    static String bytes(long bytes) {
        if (bytes >= 1024L * 1024) {
            return String.format(Locale.ROOT, "%.1f MiB", bytes / RateSchedule.MIB);
        }
        if (bytes >= 1024) {
            return String.format(Locale.ROOT, "%.0f KiB", bytes / 1024.0);
        }
        return bytes + " B";
    }

    static String items(long items) {
        return items == Long.MAX_VALUE ? "∞" : Long.toString(items);
    }
}
