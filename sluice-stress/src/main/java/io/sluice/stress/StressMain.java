package io.sluice.stress;

import org.openjdk.jcstress.JCStress;
import org.openjdk.jcstress.Options;
import org.openjdk.jcstress.infra.Status;
import org.openjdk.jcstress.infra.collectors.DiskReadCollector;
import org.openjdk.jcstress.infra.collectors.InProcessCollector;
import org.openjdk.jcstress.infra.collectors.TestResult;
import org.openjdk.jcstress.infra.grading.TestGrading;

import java.io.File;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Runs the jcstress tests like {@code org.openjdk.jcstress.Main} (same options: {@code -m quick},
 * {@code -t regexp}, {@code -time}, ...), then prints one line per failed test and exits 1 when
 * any test saw a FORBIDDEN (or unlisted) outcome, ended in an error or timeout, or did not run at
 * all. jcstress alone ends with an {@link AssertionError} listing every failing configuration, but
 * a test that matched no scheduling class or no JVM configuration passes silently.
 */
public final class StressMain {

    private StressMain() {}

    public static void main(String[] args) throws Exception {
        Options options = new Options(args);
        if (!options.parse()) {
            System.exit(2);
        }
        JCStress jcstress = new JCStress(options);
        SortedSet<String> expected = jcstress.getTests();
        boolean reportedFailures = false;
        try {
            jcstress.run();
        } catch (AssertionError failures) { // jcstress's "TEST FAILURES": the summary below has them
            reportedFailures = true;
        }

        Map<String, Set<String>> failed = new TreeMap<>();
        Set<String> ran = new TreeSet<>();
        if (new File(options.getResultFile()).isFile()) {
            InProcessCollector collector = new InProcessCollector();
            DiskReadCollector reader = new DiskReadCollector(options.getResultFile(), collector);
            reader.dump();
            reader.close();
            for (TestResult result : collector.getTestResults()) {
                ran.add(result.getName());
                TestGrading grading = result.grading();
                if (result.status() != Status.NORMAL) {
                    failure(failed, result.getName()).add(result.status().toString());
                } else if (!grading.isPassed) {
                    failure(failed, result.getName()).addAll(grading.failureMessages);
                }
            }
        }
        for (String test : expected) {
            if (!ran.contains(test)) {
                failure(failed, test).add("did not run");
            }
        }

        System.out.println();
        System.out.println("sluice-stress: " + expected.size() + " tests, " + (expected.size() - failed.size())
                + " passed in every configuration, " + failed.size() + " failed");
        failed.forEach((test, why) -> {
            System.out.println("  FAILED " + test);
            why.forEach(reason -> System.out.println("    " + reason));
        });
        if (reportedFailures && failed.isEmpty()) {
            System.out.println("  FAILED: jcstress reported failures that the result file does not show");
        }
        System.exit(failed.isEmpty() && !reportedFailures && !expected.isEmpty() ? 0 : 1);
    }

    private static Set<String> failure(Map<String, Set<String>> failed, String test) {
        return failed.computeIfAbsent(test, name -> new TreeSet<>());
    }
}
