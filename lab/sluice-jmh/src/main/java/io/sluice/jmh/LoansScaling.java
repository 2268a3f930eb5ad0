package io.sluice.jmh;

import io.sluice.lab.BuildInfo;
import io.sluice.lab.Load;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs {@link LoansBenchmark} at 1, 2, 4, 8, 16, 32 and 64 threads, one JMH run per count; any
 * JMH option may follow (a benchmark regexp, {@code -wi}, {@code -i}, {@code -f}), and {@code -t}
 * chooses one count instead of all. Read the figures only from a quiet machine.
 *
 * <p>{@code --results DIR} makes it a run to publish: it refuses a jar built from uncommitted
 * changes (unless {@code --allow-dirty}), writes each count's scores as JMH's CSV
 * ({@code loans-T.csv}), the machine's load during each count ({@code loads.csv}) and what the run
 * was ({@code run.txt}); {@link LoansReport} reads that folder.
 *
 * <pre>
 * mvn -B -Plab -pl lab/sluice-jmh -am package -DskipTests
 * java -jar lab/sluice-jmh/target/sluice-jmh.jar                         # 1 to 64 threads, printed
 * java -jar lab/sluice-jmh/target/sluice-jmh.jar -t 8 isLent             # 8 threads, the look-ups
 * java -jar lab/sluice-jmh/target/sluice-jmh.jar --results lab/results/DATE-loans
 * </pre>
 */
public final class LoansScaling {

    private static final int[] THREADS = {1, 2, 4, 8, 16, 32, 64};
    private static final String RESULTS = "--results";

    private LoansScaling() {}

    public static void main(String[] args) throws Exception {
        List<String> jmhArgs = new ArrayList<>(Arrays.asList(args));
        Path results = null;
        int at = jmhArgs.indexOf(RESULTS);
        if (at >= 0) {
            if (at + 1 >= jmhArgs.size()) {
                throw new IllegalArgumentException(RESULTS + " needs a folder");
            }
            results = Path.of(jmhArgs.remove(at + 1));
            jmhArgs.remove(at);
            BuildInfo.requireCommitted(jmhArgs.remove(BuildInfo.ALLOW_DIRTY));
            Files.createDirectories(results);
            Files.writeString(
                    results.resolve(LoansRun.ABOUT),
                    LoansRun.about(
                            BuildInfo.commit(),
                            Runtime.version().toString(),
                            Runtime.getRuntime().availableProcessors(),
                            Instant.now(),
                            String.join(" ", args)),
                    StandardCharsets.UTF_8);
            Files.writeString(results.resolve(LoansRun.LOADS), LoansRun.LOADS_HEADER + "\n", StandardCharsets.UTF_8);
        }
        CommandLineOptions given = new CommandLineOptions(jmhArgs.toArray(String[]::new));
        boolean included = !given.getIncludes().isEmpty();
        int[] counts =
                given.getThreads().hasValue() ? new int[] {given.getThreads().get()} : THREADS;
        for (int threads : counts) {
            OptionsBuilder options = new OptionsBuilder();
            options.parent(given);
            if (!included) {
                options.include(LoansBenchmark.class.getName());
            }
            if (results != null) {
                options.resultFormat(ResultFormatType.CSV)
                        .result(results.resolve(LoansRun.scores(threads)).toString());
            }
            Load.Meter meter = new Load.Meter();
            new Runner(options.threads(threads).build()).run();
            Load load = meter.stop();
            if (results != null) {
                Files.writeString(
                        results.resolve(LoansRun.LOADS),
                        LoansRun.loadLine(threads, load) + "\n",
                        StandardCharsets.UTF_8,
                        StandardOpenOption.APPEND);
            }
        }
    }
}
