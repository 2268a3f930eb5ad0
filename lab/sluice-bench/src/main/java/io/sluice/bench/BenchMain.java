package io.sluice.bench;

import io.sluice.bench.providers.Providers;
import io.sluice.lab.BuildInfo;
import io.sluice.lab.ChildJvm;
import io.sluice.lab.GeneratedBlocks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The benchmark's command line; {@link #usage()} lists the commands and options. A profile's run is a
 * folder: {@code samples.csv} (one line per sample, {@link Sample#HEADER}), {@code run.properties}
 * ({@link RunInfo}), {@code report.md} and the charts. A run whose machine was not quiet is marked
 * NOISY, and {@code report} writes no docs block from it without {@code --allow-noisy}. The docs'
 * blocks: {@link Docs}.
 */
public final class BenchMain {

    /** Options without a value. */
    private static final Set<String> FLAGS = Set.of("--allow-dirty");

    private BenchMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("help")) {
            System.out.println(usage());
            return;
        }
        if (args[0].equals("stress-worker")) { // positional: provider, writes, chunks each, directory
            Stress.worker(args[1], Integer.parseInt(args[2]), Long.parseLong(args[3]), Path.of(args[4]));
            System.exit(0);
        }
        if (args[0].equals("report")) {
            System.exit(Docs.command(GeneratedBlocks.repositoryRoot(Path.of("")).orElse(null))
                    .run(List.of(args).subList(1, args.length), System.out));
        }
        Map<String, String> options = options(Arrays.copyOfRange(args, 1, args.length));
        switch (args[0]) {
            case "worker" ->
                Worker.run(
                        configure(Profile.named(options.get("profile")), options),
                        Integer.parseInt(options.get("fork")),
                        Path.of(options.get("dir")),
                        Path.of(options.get("samples")),
                        System.out::println);
            case "stress" -> stress(options);
            case "phases" -> io.sluice.bench.phases.PhaseTimes.main(options);
            default -> profile(configure(Profile.named(args[0]), options), options);
        }
        System.exit(0); // peers' non-daemon threads (Rio, Vert.x) must not keep the JVM alive
    }

    static String usage() {
        return """
                usage: lab bench PROFILE [options]  one run into --out DIR
                       lab bench stress [--size 1G] [--timeout SECONDS]  1 GiB of 1 KiB buffers, -Xmx64m
                       lab -J-Xms2g -J-Xmx2g bench phases [--cells READ:1K:1,...] [--ops 1000] [--rounds 6] [--out DIR]
                         one small file's operation at a time, timed phase by phase (open, size, I/O, close...)
                       lab bench report --from RUN [--charts DIR] [--allow-noisy]
                         RUN's tables and charts; rewrites the docs' blocks generated from RUN
                       lab bench report --check  fails if a docs block differs from its data
                       lab bench report --all  rewrites every docs block from the run it names
                lab: java -jar lab/sluice-lab-cli/target/lab.jar (the tool's own jar, sluice-bench.jar, takes the
                  same arguments after "bench")
                profiles: smoke (seconds), quick (minutes: compact table with ratios), standard (the paper's grid
                  without its >1 GiB cells), full (the whole grid), read (the read path's choices), demand (sluice's
                  demand strategies), small (1 KiB and 64 KiB files against the careful loops)
                options: --cells WRITE:1M:10,READ:10M:1,...  --providers %s
                  --forks N --warmup N --iterations N --min-sample-ms N (repeat invocations until a sample lasts this long)
                  --java PATH (the forks' JDK) --jvm-args "-Xmx2g ..." --dir TMPDIR
                  --out DIR (default target/bench-results/PROFILE) --charts DIR (default OUT/images)
                  --allow-dirty (run from a jar built with uncommitted changes: a trial, not for publishing)""".formatted(String.join(",", Providers.comparison()));
    }

    /**
     * {@code --name value} pairs and {@link #FLAGS} (as {@code true}), by name without the dashes.
     *
     * @throws IllegalArgumentException for a word that is not an option or an option without its value
     */
    public static Map<String, String> options(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (FLAGS.contains(args[i])) {
                options.put(args[i].substring(2), "true");
            } else if (args[i].startsWith("--") && i + 1 < args.length) {
                options.put(args[i].substring(2), args[++i]);
            } else {
                throw new IllegalArgumentException("expected --name value pairs, got '" + args[i] + "'");
            }
        }
        return options;
    }

    private static Profile configure(Profile base, Map<String, String> options) {
        return new Profile(
                base.name(),
                options.containsKey("cells") ? Cell.parseAll(options.get("cells")) : base.cells(),
                options.containsKey("providers")
                        ? List.of(options.get("providers").split(","))
                        : base.providers(),
                Integer.parseInt(options.getOrDefault("forks", "" + base.forks())),
                Integer.parseInt(options.getOrDefault("warmup", "" + base.warmupRounds())),
                Integer.parseInt(options.getOrDefault("iterations", "" + base.measuredRounds())),
                Long.parseLong(options.getOrDefault("min-sample-ms", "" + base.minSampleMillis())));
    }

    private static Path tempDir(Map<String, String> options) throws IOException {
        return options.containsKey("dir") ? Path.of(options.get("dir")) : Files.createTempDirectory("sluice-bench-");
    }

    private static void profile(Profile profile, Map<String, String> options) throws Exception {
        BuildInfo.requireCommitted(options.containsKey("allow-dirty"));
        Path out =
                Files.createDirectories(Path.of(options.getOrDefault("out", "target/bench-results/" + profile.name())));
        Path dir = tempDir(options);
        String java = options.getOrDefault("java", ChildJvm.java().toString());
        List<String> jvmArgs = options.containsKey("jvm-args")
                ? List.of(options.get("jvm-args").trim().split("\\s+"))
                : Worker.DEFAULT_JVM_ARGS;
        System.out.printf(
                "sluice-bench %s: %d cells x %d providers, %d fork(s), %d warm-up + %d measured rounds "
                        + "of at least %d ms each; files in %s, samples in %s%n",
                profile.name(),
                profile.cells().size(),
                profile.providers().size(),
                profile.forks(),
                profile.warmupRounds(),
                profile.measuredRounds(),
                profile.minSampleMillis(),
                dir,
                out.resolve("samples.csv"));
        long began = System.nanoTime();
        List<Sample> samples = Worker.forks(profile, java, jvmArgs, dir, out.resolve("samples.csv"));
        double minutes = (System.nanoTime() - began) / 60e9;
        Report report = new Report(samples);
        RunInfo run = RunInfo.of(samples);
        String command = "java -jar lab/sluice-bench/target/sluice-bench.jar " + profile.name() // repeats this run
                + new TreeMap<>(options)
                        .entrySet().stream()
                                .map(option -> " --" + option.getKey() + " "
                                        + (option.getValue().contains(" ")
                                                ? "\"" + option.getValue() + "\""
                                                : option.getValue()))
                                .collect(Collectors.joining());
        run.write(out.resolve("run.properties"), command, minutes);
        String markdown = "# sluice-bench " + profile.name() + "\n\n" + run.line() + "\n\n"
                + machine(dir, java, jvmArgs)
                + String.format(Locale.ROOT, "\nRun time: %.1f min. Command: `%s`%n", minutes, command)
                + "\n" + report.markdown() + "\n```\n" + Targets.text(report) + "```\n";
        Files.writeString(out.resolve("report.md"), markdown, StandardCharsets.UTF_8);
        Path chartsDir =
                Path.of(options.getOrDefault("charts", out.resolve("images").toString()));
        BarChart.drawRun(report, chartsDir, profile.name());
        System.out.printf(
                Locale.ROOT,
                "%n%s%n%s%n%s%ndone in %.1f min; samples, run.properties and report.md in %s;"
                        + " charts: %s%nWrites reach the page cache only (no fsync) except in write_sync cells.%n",
                report.compact(),
                Targets.text(report),
                run.line(),
                minutes,
                out,
                chartsDir);
    }

    private static void stress(Map<String, String> options) throws Exception {
        long size = Cell.parseSize(options.getOrDefault("size", "1G"));
        List<String> providers = options.containsKey("providers")
                ? List.of(options.get("providers").split(","))
                : Providers.stress();
        Path out = Files.createDirectories(Path.of(options.getOrDefault("out", "target/bench-results")));
        String java = options.getOrDefault("java", ChildJvm.java().toString());
        long timeoutSeconds = Long.parseLong(options.getOrDefault("timeout", "300"));
        Path dir = tempDir(options);
        List<Stress.Result> results = Stress.run(providers, size, java, dir, timeoutSeconds);
        String markdown = Stress.markdown(results, size, Stress.threads(providers, java, dir, timeoutSeconds));
        Files.writeString(out.resolve("stress-report.md"), markdown, StandardCharsets.UTF_8);
        System.out.println();
        System.out.println(markdown);
        Path chartsDir =
                Path.of(options.getOrDefault("charts", out.resolve("images").toString()));
        Stress.chart(results, size).writePng(chartsDir.resolve("memory-stress.png"));
    }

    /** The machine, in the form of "How it was run" in lab/results/2026-11-23-grid/README.md. */
    static String machine(Path dir, String java, List<String> jvmArgs) throws IOException {
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        FileStore store = Files.getFileStore(dir);
        Path cpuinfo = Path.of("/proc/cpuinfo");
        String cpu = (Files.isReadable(cpuinfo) ? Files.readAllLines(cpuinfo) : List.<String>of())
                .stream()
                        .filter(line -> line.startsWith("model name"))
                        .map(line -> line.substring(line.indexOf(':') + 1).trim())
                        .findFirst()
                        .orElse("unknown CPU");
        return String.format(
                Locale.ROOT,
                "- Machine: %d cores (%s), %.1f GiB memory, %s %s%n"
                        + "- Files: %s (%s filesystem)%n- Launcher JDK: %s %s; forks run `%s %s`%n",
                Runtime.getRuntime().availableProcessors(),
                cpu,
                os.getTotalMemorySize() / (1024.0 * 1024 * 1024),
                System.getProperty("os.name"),
                System.getProperty("os.version"),
                dir,
                store.type(),
                System.getProperty("java.vm.name"),
                Runtime.version(),
                java,
                String.join(" ", jvmArgs));
    }
}
