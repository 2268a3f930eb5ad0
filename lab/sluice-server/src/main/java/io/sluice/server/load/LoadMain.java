package io.sluice.server.load;

import io.sluice.IoExecutors;
import io.sluice.lab.BuildInfo;
import io.sluice.lab.FileTrees;
import io.sluice.server.Lane;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The load harness: {@code java -cp sluice-server.jar io.sluice.server.load.LoadMain
 * [--scale smoke|full] [--scenarios A1,A2,B] [--lanes A,B,C,C-unbounded] [--server-cpu 0]
 * [--run-seconds N] [--charts DIR] [--closed-loop auto|wrk|java] [--results DIR] [--repeats N]}.
 * {@code --closed-loop}: A1 and A2's generator, {@link WrkLoad wrk} (auto: when on the {@code PATH}) or the
 * JDK {@code HttpClient}; B's is always the JDK's. {@code --charts DIR}: {@link LoadCharts} of repeat 1.
 * {@code --results DIR}: {@code rows.csv} ({@link RowsCsv}) and {@code run.properties}, which {@link LoadReport}
 * reports from. {@code --repeats N} runs every scenario, lane and step N times, interleaved, so that drift on
 * the machine hits every lane alike. Prints the tables and gates ({@link Gates}); exits 1 when one failed (with
 * repeats: was missed). Lane B is left out on JDKs without virtual threads, and the output says so.
 */
public final class LoadMain {

    private LoadMain() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> flags = flags(
                List.of(BuildInfo.requireCommitted(args)),
                Map.of(
                        "--scale",
                        "smoke",
                        "--scenarios",
                        "A1,A2,B",
                        "--lanes",
                        "A,B,C,C-unbounded",
                        "--server-cpu",
                        "",
                        "--run-seconds",
                        "0",
                        "--charts",
                        "",
                        "--closed-loop",
                        "auto",
                        "--results",
                        "",
                        "--repeats",
                        "1"));
        Scale scale = Scale.parse(flags.get("--scale"));
        long runSeconds = Long.parseLong(flags.get("--run-seconds"));
        if (runSeconds > 0) {
            scale = scale.withRunTime(Duration.ofSeconds(runSeconds));
        }
        String closedLoop = flags.get("--closed-loop");
        Optional<WrkLoad> wrk = switch (closedLoop) {
            case "auto" -> WrkLoad.find();
            case "java" -> Optional.empty();
            case "wrk" ->
                Optional.of(WrkLoad.find()
                        .orElseThrow(() -> new IllegalArgumentException(
                                "--closed-loop wrk: no wrk on the PATH (Debian: apt-get install wrk)")));
            default -> throw new IllegalArgumentException("--closed-loop must be auto, wrk or java, was " + closedLoop);
        };
        String serverCpu = flags.get("--server-cpu");
        String charts = flags.get("--charts");
        String results = flags.get("--results");
        int repeats = repeats(flags.get("--repeats"));
        int failed = run(
                scale,
                repeats,
                List.of(flags.get("--scenarios").split(",")),
                Stream.of(flags.get("--lanes").split(",")).map(Lane::parse).toList(),
                serverCpu.isEmpty() ? null : serverCpu,
                charts.isEmpty() ? null : Path.of(charts),
                wrk,
                results.isEmpty() ? null : Path.of(results),
                System.out);
        System.exit(failed == 0 ? 0 : 1);
    }

    /** Runs and prints everything, the raw results to {@code results} unless null; returns the failed gates. */
    static int run(
            Scale scale,
            int repeats,
            List<String> scenarioNames,
            List<Lane> requestedLanes,
            String serverCpu,
            Path chartDirectory,
            Optional<WrkLoad> wrk,
            Path results,
            PrintStream out)
            throws Exception {
        List<Lane> lanes = new ArrayList<>(requestedLanes);
        if (lanes.contains(Lane.B) && !IoExecutors.virtualThreadsAvailable()) {
            lanes.remove(Lane.B);
            out.println("lane B left out: this JVM (" + Runtime.version() + ") has no virtual threads (JDK 21+)");
        }
        Path work = Files.createTempDirectory("sluice-load-");
        List<List<Row>> byRepeat = new ArrayList<>();
        RowsCsv.Origin origin =
                new RowsCsv.Origin(BuildInfo.commit(), Runtime.version().toString(), scale.name());
        Instant started = Instant.now();
        Consumer<Row> record = row -> {
            List<Row> rows = byRepeat.get(byRepeat.size() - 1);
            rows.add(row);
            out.println(row.markdown());
            out.flush();
            if (results != null) {
                try {
                    RowsCsv.append(results.resolve(RowsCsv.FILE), origin, row, byRepeat.size());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
        if (results != null) {
            Files.createDirectories(results);
            Files.deleteIfExists(results.resolve(RowsCsv.FILE));
        }
        String generator = wrk.map(WrkLoad::toString).orElse("JDK HttpClient (wrk not used)");
        try {
            Scenarios scenarios = new Scenarios(scale, work, serverCpu, wrk);
            out.println("scale=" + scale.name() + " java=" + Runtime.version() + " cpus="
                    + Runtime.getRuntime().availableProcessors() + " server-cpu="
                    + (serverCpu == null ? "any" : serverCpu)
                    + " closed-loop=" + generator
                    + " open-model=JDK HttpClient");
            out.println(Row.header());
            for (int repeat = 1; repeat <= repeats; repeat++) {
                Instant repeatStarted = Instant.now();
                byRepeat.add(new ArrayList<>());
                runOnce(scale, scenarioNames, lanes, scenarios, record);
                if (repeats > 1) {
                    out.println(repeatTook(
                            repeat,
                            repeats,
                            Duration.between(repeatStarted, Instant.now()).toSeconds()));
                }
            }
        } finally {
            FileTrees.delete(work);
        }
        List<Row> first = byRepeat.get(0);
        out.print(RunTables.drains(byRepeat));
        if (chartDirectory != null) {
            LoadCharts.write(scale, Integer.toString(Runtime.version().feature()), first, chartDirectory, out);
        }
        if (!SendQueueProbe.available()) {
            out.println("note: /proc/net/tcp is not readable here (not Linux?): send-queue bytes are n/a");
        }
        if (repeats > 1) {
            out.print("\n" + RunTables.compact(byRepeat) + "\n");
        }
        int failed = new Gates(byRepeat, scale, out).evaluateAll();
        out.println("the run took " + Duration.between(started, Instant.now()).toSeconds() + " s (" + repeats
                + (repeats == 1 ? " repeat)" : " repeats)"));
        if (results != null) {
            Properties run = new Properties();
            run.putAll(Map.of(
                    "commit",
                    origin.commit(),
                    "jdk",
                    origin.jdk(),
                    "scale",
                    scale.name(),
                    "scenarios",
                    String.join(",", scenarioNames),
                    "lanes",
                    lanes.stream().map(Lane::flag).collect(Collectors.joining(",")),
                    "serverCpu",
                    serverCpu == null ? "any" : serverCpu,
                    "serverJava",
                    System.getProperty("sluice.server.java", "the harness's"),
                    "closedLoop",
                    generator,
                    "cpus",
                    Integer.toString(Runtime.getRuntime().availableProcessors()),
                    "started",
                    started.toString()));
            run.put("repeats", Integer.toString(repeats));
            run.put("ended", Instant.now().toString());
            try (var writer = Files.newBufferedWriter(results.resolve("run.properties"))) {
                run.store(writer, "how the load run was made; rows.csv holds its measurements");
            }
            out.println("raw results in " + results + " (" + RowsCsv.FILE + ", run.properties)");
        }
        return failed;
    }

    /** {@code defaults} with the values {@code args} give, as {@code --flag value} pairs of flags it names. */
    static Map<String, String> flags(List<String> args, Map<String, String> defaults) {
        Map<String, String> flags = new HashMap<>(defaults);
        for (int i = 0; i < args.size(); i += 2) {
            if (i + 1 >= args.size() || flags.put(args.get(i), args.get(i + 1)) == null) {
                throw new IllegalArgumentException((i + 1 >= args.size() ? "no value for flag " : "unknown flag ")
                        + args.get(i) + "; known: " + new TreeSet<>(defaults.keySet()));
            }
        }
        return flags;
    }

    /** How long a repeat took and, after the first, about how long the others will. */
    static String repeatTook(int repeat, int repeats, long seconds) {
        return "repeat " + repeat + " of " + repeats + " took " + seconds + " s"
                + (repeat == 1
                        ? "; the other " + (repeats - 1) + " will take about " + duration((repeats - 1) * seconds)
                                + " more"
                        : "");
    }

    /** {@code 45 s} under two minutes, else {@code 12 min}. */
    static String duration(long seconds) {
        return seconds < 120 ? seconds + " s" : Math.round(seconds / 60.0) + " min";
    }

    /** {@code --repeats}: a whole number from 1. */
    static int repeats(String value) {
        if (!value.trim().matches("[1-9]\\d{0,8}")) {
            throw new IllegalArgumentException("--repeats must be a whole number from 1, was " + value);
        }
        return Integer.parseInt(value.trim());
    }

    /** Every scenario, step and lane once, in this order: A1 and A2 by step, each step on every lane; then B by lane. */
    private static void runOnce(
            Scale scale, List<String> scenarioNames, List<Lane> lanes, Scenarios scenarios, Consumer<Row> record)
            throws Exception {
        for (String scenario : scenarioNames) {
            String name = scenario.trim();
            switch (name) {
                case "A1", "A2" -> {
                    for (int connections : name.equals("A1") ? scale.a1Connections() : scale.a2Connections()) {
                        for (Lane lane : lanes) {
                            if (lane != Lane.C_UNBOUNDED) { // C-unbounded is a control in B only
                                record.accept(scenarios.closedLoop(name, lane, connections));
                            }
                        }
                    }
                }
                case "B" -> {
                    for (Lane lane : lanes) {
                        scenarios.b(lane).forEach(record);
                    }
                }
                default ->
                    throw new IllegalArgumentException("unknown scenario " + scenario
                            + " (A1, A2, B; scenario C is the adaptive tool's shared sink)");
            }
        }
    }

    /** Daemon threads named {@code name}: the harness's timers and clients never keep the JVM alive. */
    static ThreadFactory daemon(String name) {
        return task -> {
            Thread thread = new Thread(task, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
