package io.sluice.lab;

import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.internal.series.AxesChartSeriesCategory;
import org.knowm.xchart.internal.series.AxesChartSeriesNumericalNoErrorBars;
import org.knowm.xchart.internal.series.Series;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The data file beside every chart the lab draws: {@code NAME.png.csv} holds each point the chart
 * shows (panel, series, x, y) under comment lines that give each panel's title and axes, the SHA-256
 * of the PNG drawn with it and, for a chart a tool's {@code report} command drew from a committed run,
 * which run ({@code # drawn by: TOOL from PATH}). A chart is checked as a block is: the PNG must
 * match the hash its data file records ({@link #problems}), and a chart drawn from a run must match
 * what the tool draws from that run now ({@link ReportCommand}). A PNG is rendered with the fonts of
 * the machine that draws it, so the check compares data, not pixels.
 */
public final class ChartData {

    /** What a chart's data file adds to the chart's file name. */
    public static final String SUFFIX = ".csv";

    private static final String HASH = "# png sha256: ";
    private static final int DIGITS = 12; // far below a double's 15-17, far above any figure a chart shows
    private static final String DRAWN_BY = "# drawn by: ";

    private ChartData() {}

    /** The data file of the chart {@code png}. */
    public static Path of(Path png) {
        return png.resolveSibling(png.getFileName() + SUFFIX);
    }

    /** Writes the data file of {@code png}, just drawn from {@code charts} as {@code bytes}. */
    static void write(List<? extends Chart<?, ?>> charts, Path png, byte[] bytes) throws IOException {
        StringBuilder data = new StringBuilder();
        data.append("# the points ")
                .append(png.getFileName())
                .append(" shows, one a row; an empty y is a point it does not draw\n");
        data.append(HASH).append(sha256(bytes)).append('\n');
        for (int panel = 1; panel <= charts.size(); panel++) {
            Chart<?, ?> chart = charts.get(panel - 1);
            data.append(String.format(
                    Locale.ROOT,
                    "# panel %d: %s; x: %s; y: %s\n",
                    panel,
                    oneLine(chart.getTitle()),
                    oneLine(chart.getXAxisTitle()),
                    oneLine(chart.getYAxisTitle())));
        }
        data.append("panel,series,x,y\n");
        for (int panel = 1; panel <= charts.size(); panel++) {
            for (Series series : charts.get(panel - 1).getSeriesMap().values()) {
                List<String> xs = xs(series);
                List<String> ys = ys(series);
                for (int point = 0; point < xs.size(); point++) {
                    data.append(panel)
                            .append(',')
                            .append(Csv.quote(series.getName()))
                            .append(',')
                            .append(Csv.quote(xs.get(point)))
                            .append(',')
                            .append(ys.get(point))
                            .append('\n');
                }
            }
        }
        Files.writeString(of(png), data, StandardCharsets.UTF_8);
    }

    private static String oneLine(String text) {
        return text == null ? "" : text.replace('\n', ' ');
    }

    private static List<String> xs(Series series) {
        if (series instanceof AxesChartSeriesCategory categories) {
            return categories.getXData().stream()
                    .map(category -> oneLine(String.valueOf(category)))
                    .toList();
        }
        if (series instanceof AxesChartSeriesNumericalNoErrorBars numerical) {
            return numbers(numerical.getXData());
        }
        throw new IllegalArgumentException("no data file for a chart with a series of type "
                + series.getClass().getName() + " (" + series.getName() + ")");
    }

    private static List<String> ys(Series series) {
        if (series instanceof AxesChartSeriesCategory category) {
            List<String> ys = new ArrayList<>();
            Iterator<? extends Number> values = category.getYData().iterator();
            while (values.hasNext()) {
                Number value = values.next();
                ys.add(value == null ? "" : number(value.doubleValue()));
            }
            return ys;
        }
        return numbers(((AxesChartSeriesNumericalNoErrorBars) series).getYData());
    }

    private static List<String> numbers(double[] values) {
        List<String> numbers = new ArrayList<>(values.length);
        for (double value : values) {
            numbers.add(Double.isNaN(value) ? "" : number(value));
        }
        return numbers;
    }

    /**
     * {@code value} to {@link #DIGITS} significant digits, written the same by every JDK: the exact binary
     * value rounded, where {@code Double.toString}'s shortest form changed with JDK 19 and the check runs
     * on 17 and 25 alike.
     */
    static String number(double value) {
        if (Double.isInfinite(value)) {
            return value > 0 ? "Infinity" : "-Infinity";
        }
        return new BigDecimal(value)
                .round(new MathContext(DIGITS))
                .stripTrailingZeros()
                .toPlainString();
    }

    /** Records in the data file of {@code png} that a tool's report command drew it from a run. */
    public static void stamp(Path png, String tool, String run) throws IOException {
        Path file = of(png);
        List<String> lines = new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8));
        lines.removeIf(line -> line.startsWith(DRAWN_BY));
        lines.add(2, DRAWN_BY + tool + " from " + run);
        Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
    }

    /** The run a tool drew the chart of {@code dataFile} from, as {@code TOOL from PATH}; empty if none did. */
    public static Optional<String> drawnBy(Path dataFile) throws IOException {
        return Files.readAllLines(dataFile, StandardCharsets.UTF_8).stream()
                .filter(line -> line.startsWith(DRAWN_BY))
                .map(line -> line.substring(DRAWN_BY.length()))
                .findFirst();
    }

    /** What a chart's data file says it shows: every line but the PNG's hash and the run it was drawn from. */
    public static String shown(Path dataFile) throws IOException {
        return Files.readAllLines(dataFile, StandardCharsets.UTF_8).stream()
                .filter(line -> !line.startsWith(HASH) && !line.startsWith(DRAWN_BY))
                .collect(Collectors.joining("\n", "", "\n"));
    }

    /**
     * Every chart under {@code root} ({@link RepositoryFiles}) whose PNG has no data file or
     * differs from the one its data file records, and every data file without its PNG, in words.
     */
    public static List<String> problems(Path root) throws IOException {
        List<String> problems = new ArrayList<>();
        for (Path file : files(root)) {
            String name = file.getFileName().toString();
            if (name.endsWith(".png")) {
                Path data = of(file);
                if (!Files.isRegularFile(data)) {
                    problems.add(root.relativize(file) + ": no data file (" + data.getFileName()
                            + "); draw it again with the tool that drew it");
                } else if (!recordedHash(data).equals(Optional.of(sha256(Files.readAllBytes(file))))) {
                    problems.add(root.relativize(file) + ": not the chart its data file records (" + HASH.trim()
                            + " differs); draw it again with the tool that drew it");
                }
            } else if (name.endsWith(".png" + SUFFIX)
                    && !Files.isRegularFile(file.resolveSibling(name.substring(0, name.length() - SUFFIX.length())))) {
                problems.add(root.relativize(file) + ": the data of a chart that is not there");
            }
        }
        return problems;
    }

    /** Every chart's data file under {@code root} ({@link RepositoryFiles}). */
    public static List<Path> dataFiles(Path root) throws IOException {
        return files(root).stream()
                .filter(file -> file.getFileName().toString().endsWith(".png" + SUFFIX))
                .toList();
    }

    private static Optional<String> recordedHash(Path dataFile) throws IOException {
        return Files.readAllLines(dataFile, StandardCharsets.UTF_8).stream()
                .filter(line -> line.startsWith(HASH))
                .map(line -> line.substring(HASH.length()).trim())
                .findFirst();
    }

    private static List<Path> files(Path root) throws IOException {
        return RepositoryFiles.under(root, file -> true);
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
