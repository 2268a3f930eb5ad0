package io.sluice.jmh;

import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link LoansBenchmark} at 1, 2, 4, 8, 16, 32 and 64 threads, one JMH run per count; any
 * JMH option may follow (a benchmark regexp, {@code -wi}, {@code -i}, {@code -f}, {@code -rf json
 * -rff file}), and {@code -t} chooses one count instead of all. Read the figures only from a machine
 * with at least as many idle cores as threads, against {@code isLentWhenNothingIsOut}.
 *
 * <pre>
 * mvn -B -Plab -pl lab/sluice-jmh -am package -DskipTests
 * java -jar lab/sluice-jmh/target/sluice-jmh.jar                      # 1 to 64 threads
 * java -jar lab/sluice-jmh/target/sluice-jmh.jar -t 8 isLent          # 8 threads, the look-ups
 * </pre>
 */
public final class LoansScaling {

    private static final int[] THREADS = {1, 2, 4, 8, 16, 32, 64};

    private LoansScaling() {
    }

    public static void main(String[] args) throws Exception {
        CommandLineOptions given = new CommandLineOptions(args);
        boolean included = !given.getIncludes().isEmpty();
        int[] counts = given.getThreads().hasValue() ? new int[] {given.getThreads().get()} : THREADS;
        for (int threads : counts) {
            OptionsBuilder options = new OptionsBuilder();
            options.parent(given);
            if (!included) {
                options.include(LoansBenchmark.class.getName());
            }
            new Runner(options.threads(threads).build()).run();
        }
    }
}
