package io.sluice.server.load;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.Stroke;
import java.util.List;
import java.util.Locale;

/**
 * One plot area of a {@link ChartCanvas}: linear axes from {@code xMin..xMax} and {@code 0..yMax}
 * (rounded up to a readable number), a y label, grid lines, and lines, markers, bars, step lines,
 * reference lines and a legend drawn in data coordinates. Categories (lanes, connection counts) are
 * the x positions 0, 1, 2...
 */
final class ChartPanel {

    private static final Stroke THIN = new BasicStroke(1f);
    private static final Stroke LINE = new BasicStroke(2f);
    private static final Stroke DASHED = new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
            new float[] {6f, 4f}, 0f);

    private final Graphics2D graphics;
    private final int left;
    private final int top;
    private final int width;
    private final int height;
    private final double xMin;
    private final double xMax;
    private final double yMax;
    private int legendLines;

    /** A panel in the pixel box (left, top, width, height), axes included. */
    ChartPanel(ChartCanvas canvas, int left, int top, int width, int height, double xMin, double xMax, double yMax,
               String yLabel) {
        this.graphics = canvas.graphics();
        this.left = left + 56;
        this.top = top + 22;
        this.width = width - 56 - 10;
        this.height = height - 22 - 34;
        this.xMin = xMin;
        this.xMax = xMax == xMin ? xMin + 1 : xMax;
        this.yMax = niceCeiling(yMax);
        graphics.setColor(ChartCanvas.INK);
        graphics.drawString(yLabel, left + 4, top + 14);
        drawYAxis();
    }

    /** The smallest 1, 2, 2.5 or 5 times a power of ten at or above {@code value} (1 for nothing). */
    static double niceCeiling(double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            return 1;
        }
        double power = Math.pow(10, Math.floor(Math.log10(value)));
        for (double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (step * power >= value) {
                return step * power;
            }
        }
        return 10 * power;
    }

    /** 4 grid intervals for a top of 2 x 10^n (steps of 0.5), else 5 (steps of 0.2, 0.5 or 1). */
    static int gridIntervals(double top) {
        double mantissa = top / Math.pow(10, Math.floor(Math.log10(top)));
        return Math.abs(mantissa - 2) < 1e-9 ? 4 : 5;
    }

    /**
     * A readable tick step for a span, and the span rounded up to whole steps: {step, roundedSpan}.
     * Time axes use it so that ticks fall on round seconds.
     */
    static double[] roundSpan(double span, int maxTicks) {
        double step = niceCeiling(span / maxTicks);
        return new double[] {step, Math.ceil(span / step - 1e-9) * step};
    }

    private void drawYAxis() {
        graphics.setStroke(THIN);
        int intervals = gridIntervals(yMax);
        for (int i = 0; i <= intervals; i++) {
            double value = yMax * i / intervals;
            int y = y(value);
            graphics.setColor(new Color(0xE5, 0xE5, 0xE5));
            graphics.drawLine(left, y, left + width, y);
            graphics.setColor(ChartCanvas.INK);
            String label = label(value);
            graphics.drawString(label, left - 6 - graphics.getFontMetrics().stringWidth(label), y + 4);
        }
        graphics.drawLine(left, top, left, top + height);
        graphics.drawLine(left, top + height, left + width, top + height);
    }

    /** Category names under x = 0, 1, 2... and an axis title. */
    void categories(List<String> names, String title) {
        graphics.setColor(ChartCanvas.INK);
        FontMetrics metrics = graphics.getFontMetrics();
        for (int i = 0; i < names.size(); i++) {
            int x = x(i);
            graphics.drawString(names.get(i), x - metrics.stringWidth(names.get(i)) / 2, top + height + 15);
        }
        axisTitle(title);
    }

    /** Numeric ticks on the x axis ({@code ticks} intervals) and an axis title. */
    void numericX(int ticks, String title) {
        graphics.setColor(ChartCanvas.INK);
        FontMetrics metrics = graphics.getFontMetrics();
        for (int i = 0; i <= ticks; i++) {
            double value = xMin + (xMax - xMin) * i / ticks;
            String label = label(value);
            int x = x(value);
            graphics.drawLine(x, top + height, x, top + height + 3);
            graphics.drawString(label, x - metrics.stringWidth(label) / 2, top + height + 15);
        }
        axisTitle(title);
    }

    private void axisTitle(String title) {
        FontMetrics metrics = graphics.getFontMetrics();
        graphics.drawString(title, left + width / 2 - metrics.stringWidth(title) / 2, top + height + 30);
    }

    /** A line through the points that are not NaN, with a dot on each, and a legend entry. */
    void line(double[] xs, double[] ys, Color colour, String legend) {
        polyline(xs, ys, colour, legend, true);
    }

    /** A line through many samples (a time series), no dots. */
    void series(double[] xs, double[] ys, Color colour, String legend) {
        polyline(xs, ys, colour, legend, false);
    }

    private void polyline(double[] xs, double[] ys, Color colour, String legend, boolean dots) {
        graphics.setColor(colour);
        graphics.setStroke(LINE);
        int previousX = -1;
        int previousY = -1;
        for (int i = 0; i < xs.length; i++) {
            if (Double.isNaN(ys[i])) {
                previousX = -1;
                continue;
            }
            int x = x(xs[i]);
            int y = y(Math.min(ys[i], yMax));
            if (dots) {
                graphics.fillOval(x - 4, y - 4, 8, 8);
            }
            if (previousX >= 0) {
                graphics.drawLine(previousX, previousY, x, y);
            }
            previousX = x;
            previousY = y;
        }
        legend(colour, legend, LINE);
    }

    /** A step line: each value holds until the next x (a sink rate that switches). */
    void steps(double[] xs, double[] ys, Color colour, String legend) {
        graphics.setColor(colour);
        graphics.setStroke(LINE);
        for (int i = 1; i < xs.length; i++) {
            int y = y(Math.min(ys[i - 1], yMax));
            graphics.drawLine(x(xs[i - 1]), y, x(xs[i]), y);
            graphics.drawLine(x(xs[i]), y, x(xs[i]), y(Math.min(ys[i], yMax)));
        }
        legend(colour, legend, LINE);
    }

    /** A bar centred on category {@code x}, {@code share} of a category wide, with its value on top. */
    void bar(double x, double value, double share, Color colour, String text) {
        int half = (int) (width / (xMax - xMin) * share / 2);
        int base = y(0);
        graphics.setColor(colour);
        if (!Double.isNaN(value)) {
            int y = y(Math.min(value, yMax));
            graphics.fillRect(x(x) - half, y, 2 * half, base - y);
            base = y;
        }
        graphics.setColor(ChartCanvas.INK);
        graphics.drawString(text, x(x) - graphics.getFontMetrics().stringWidth(text) / 2, base - 4);
    }

    /** A short black tick across category {@code x} at {@code value} (a reference such as idle RSS). */
    void tick(double x, double value, double share) {
        if (Double.isNaN(value)) {
            return;
        }
        int half = (int) (width / (xMax - xMin) * share / 2);
        graphics.setColor(Color.BLACK);
        graphics.setStroke(LINE);
        int y = y(Math.min(value, yMax));
        graphics.drawLine(x(x) - half, y, x(x) + half, y);
        graphics.setStroke(THIN);
    }

    /** A dashed horizontal reference line across the panel, labelled at its right end. */
    void reference(double value, Color colour, String text) {
        graphics.setColor(colour);
        graphics.setStroke(DASHED);
        int y = y(Math.min(value, yMax));
        graphics.drawLine(left, y, left + width, y);
        graphics.setStroke(THIN);
        graphics.drawString(text, left + width - graphics.getFontMetrics().stringWidth(text) - 4, y - 4);
    }

    private void legend(Color colour, String text, Stroke stroke) {
        if (text == null || text.isEmpty()) {
            return;
        }
        int y = top + 12 + 14 * legendLines++;
        int x = left + 10;
        graphics.setColor(colour);
        graphics.setStroke(stroke);
        graphics.drawLine(x, y - 4, x + 18, y - 4);
        graphics.setStroke(THIN);
        graphics.setColor(ChartCanvas.INK);
        graphics.drawString(text, x + 24, y);
    }

    int x(double value) {
        return left + (int) Math.round((value - xMin) / (xMax - xMin) * width);
    }

    int y(double value) {
        return top + height - (int) Math.round(value / yMax * height);
    }

    static String label(double value) {
        if (value == Math.rint(value)) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        return String.format(Locale.ROOT, Math.abs(value) < 10 ? "%.2f" : "%.1f", value);
    }
}
