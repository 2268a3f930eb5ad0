package io.sluice.jmh;

import io.sluice.lab.Csv;
import io.sluice.lab.Load;
import io.sluice.lab.Quietness;
import io.sluice.lab.ReportCommand;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * One {@link LoansScaling} run as its results folder holds it: each thread count's scores as JMH
 * wrote them ({@code loans-T.csv}), the machine's load during each count ({@code loads.csv}) and
 * what the run was ({@code run.txt}).
 *
 * @param scores  every benchmark's score, by thread count
 * @param loads   the machine's load during each thread count's JMH run
 * @param about   {@code run.txt}'s fields: commit, jdk, cores, started, arguments
 */
record LoansRun(List<Score> scores, Map<Integer, Load> loads, Map<String, String> about) implements ReportCommand.Run {

    static final String ABOUT = "run.txt";
    static final String LOADS = "loads.csv";
    static final String LOADS_HEADER = "threads,load1_before,load1_after,others_busy";

    private static final String JMH_HEADER =
            "\"Benchmark\",\"Mode\",\"Threads\",\"Samples\",\"Score\",\"Score Error (99.9%)\",\"Unit\"";

    /** One benchmark at one thread count: JMH's mean time per operation and its 99.9% error, in ns. */
    record Score(String benchmark, int threads, double nanos, double error) {}

    /** The file a thread count's scores go to. */
    static String scores(int threads) {
        return "loans-" + threads + ".csv";
    }

    static String about(String commit, String jdk, int cores, Instant started, String arguments) {
        return "commit " + commit + "\njdk " + jdk + "\ncores " + cores + "\nstarted "
                + started.truncatedTo(ChronoUnit.SECONDS) + "\narguments " + arguments + "\n";
    }

    static String loadLine(int threads, Load load) {
        return String.format(
                Locale.ROOT, "%d,%.2f,%.2f,%.4f", threads, load.load1Before(), load.load1After(), load.othersBusy());
    }

    /**
     * Reads a results folder.
     *
     * @throws IOException if a file is missing or malformed, a score is not in ns/op, or there is none
     */
    static LoansRun read(Path folder) throws IOException {
        Map<String, String> about = new TreeMap<>();
        for (String line : Files.readAllLines(folder.resolve(ABOUT), StandardCharsets.UTF_8)) {
            int space = line.indexOf(' ');
            if (space > 0) {
                about.put(line.substring(0, space), line.substring(space + 1));
            }
        }
        for (String key : List.of("commit", "jdk", "cores", "started", "arguments")) {
            if (!about.containsKey(key)) {
                throw new IOException(folder.resolve(ABOUT) + ": no '" + key + "' line");
            }
        }
        Map<Integer, Load> loads = new TreeMap<>();
        Csv.read(
                folder.resolve(LOADS),
                List.of(LOADS_HEADER),
                (header, fields) -> loads.put(
                        Integer.parseInt(fields.get(0)),
                        new Load(
                                Double.parseDouble(fields.get(1)),
                                Double.parseDouble(fields.get(2)),
                                Double.parseDouble(fields.get(3)))));
        List<Score> scores = new ArrayList<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.filter(file -> file.getFileName().toString().matches("loans-\\d+\\.csv"))
                    .sorted()
                    .toList()) {
                scores.addAll(Csv.read(file, List.of(JMH_HEADER), (header, fields) -> {
                    if (!fields.get(6).equals("ns/op")) {
                        throw new IllegalArgumentException("expected ns/op, was " + fields.get(6));
                    }
                    String name = fields.get(0);
                    return new Score(
                            name.substring(name.lastIndexOf('.') + 1),
                            Integer.parseInt(fields.get(2)),
                            number(fields.get(4)),
                            number(fields.get(5)));
                }));
            }
        }
        if (scores.isEmpty()) {
            throw new IOException(folder + ": no scores (loans-T.csv)");
        }
        return new LoansRun(List.copyOf(scores), Map.copyOf(loads), Map.copyOf(about));
    }

    /** JMH writes scores in the JVM's locale: a decimal comma is read as a point. */
    private static double number(String text) {
        return text.equals("NaN") ? Double.NaN : Double.parseDouble(text.replace(',', '.'));
    }

    int cores() {
        return Integer.parseInt(about.get("cores"));
    }

    /** The {@code run} block: origin, the machine and the command. */
    String line() {
        return "Commit " + about.get("commit") + ", JDK " + about.get("jdk") + ", " + cores() + " cores, started "
                + about.get("started") + "; JMH average time per operation, its 99.9% error; "
                + quietness().inWords()
                + ".\nCommand: `java -jar lab/sluice-jmh/target/sluice-jmh.jar " + about.get("arguments") + "`.\n";
    }

    /** The quiet rule over every thread count scored or measured; a count scored without a load reading is unknown. */
    @Override
    public Quietness quietness() {
        SortedSet<Integer> threads = new TreeSet<>(loads.keySet());
        scores.forEach(score -> threads.add(score.threads()));
        return Quietness.of(
                "thread count",
                threads.stream()
                        .map(count -> loads.getOrDefault(count, Load.UNKNOWN))
                        .toList());
    }
}
