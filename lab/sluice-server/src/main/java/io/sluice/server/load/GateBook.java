package io.sluice.server.load;

import io.sluice.lab.Estimate;

import java.io.PrintStream;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The gate lines and count of one evaluation: on one sample {@code PASS}/{@code FAIL} with the run's figures; on
 * repeats {@code MET}, {@code MISSED} or {@code INCONCLUSIVE} by each {@link Estimate}'s 95% interval. Both use
 * the same rule: an estimate of one sample has no width, so it is met or missed. Used by one thread.
 */
final class GateBook {

    /** One figure against its target: at least {@code target}, or at most if {@code atMost}. */
    record Check(String label, Estimate measured, double target, boolean atMost) {

        Estimate.Verdict verdict() {
            return measured.against(target, atMost);
        }

        /** {@code C / B req/s 1.34 (1.30..1.38) >= 0.80}. */
        String text() {
            return label + " " + interval(measured) + (atMost ? " <= " : " >= ") + figure(target);
        }
    }

    static Check check(String label, Estimate measured, double target, boolean atMost) {
        return new Check(label, measured, target, atMost);
    }

    private final int repeats; // samples behind every figure
    private final PrintStream out;
    private final Map<Estimate.Verdict, Integer> counted = new EnumMap<>(Estimate.Verdict.class);

    GateBook(int repeats, PrintStream out) {
        this.repeats = repeats;
        this.out = out;
    }

    /** A gate that holds when every check holds; {@code detail} is the one-sample line's figures. */
    void all(String name, String detail, List<Check> checks) {
        List<Estimate.Verdict> verdicts = checks.stream().map(Check::verdict).toList();
        Estimate.Verdict verdict = verdicts.stream().anyMatch(GateBook::missed)
                ? Estimate.Verdict.MISSED
                : verdicts.stream().allMatch(checkVerdict -> checkVerdict == Estimate.Verdict.MET)
                        ? Estimate.Verdict.MET
                        : Estimate.Verdict.INCONCLUSIVE;
        print(name, detail, checks, verdict);
    }

    /** A gate that holds when any check holds (a control that may fail in one of several ways). */
    void any(String name, String detail, List<Check> checks) {
        List<Estimate.Verdict> verdicts = checks.stream().map(Check::verdict).toList();
        Estimate.Verdict verdict = verdicts.contains(Estimate.Verdict.MET)
                ? Estimate.Verdict.MET
                : verdicts.stream().allMatch(GateBook::missed)
                        ? Estimate.Verdict.MISSED
                        : Estimate.Verdict.INCONCLUSIVE;
        print(name, detail, checks, verdict);
    }

    /** A gate that cannot be computed (nothing was measured): failed, or missed. */
    void unmeasured(String name, String detail) {
        print(name, detail, List.of(), Estimate.Verdict.MISSED);
    }

    private static boolean missed(Estimate.Verdict verdict) {
        return verdict == Estimate.Verdict.MISSED || verdict == Estimate.Verdict.NOT_MEASURED;
    }

    private void print(String name, String detail, List<Check> checks, Estimate.Verdict verdict) {
        counted.merge(verdict, 1, Integer::sum);
        if (repeats <= 1) {
            out.println((verdict == Estimate.Verdict.MET ? "PASS " : "FAIL ") + name + ": " + detail);
        } else {
            out.println(verdict.name() + " " + name + ": "
                    + (checks.isEmpty()
                            ? detail
                            : checks.stream().map(Check::text).collect(Collectors.joining("; "))));
        }
    }

    /** Prints the count; returns the gates that failed (one sample) or were missed (repeats). */
    int close() {
        int met = counted.getOrDefault(Estimate.Verdict.MET, 0);
        int missed = counted.getOrDefault(Estimate.Verdict.MISSED, 0);
        int inconclusive = counted.getOrDefault(Estimate.Verdict.INCONCLUSIVE, 0);
        if (repeats > 1) {
            out.println(met + " met, " + missed + " missed, " + inconclusive + " inconclusive (" + repeats
                    + " repeats, 95% intervals)");
            return missed;
        }
        out.println(met + " passed, " + (missed + inconclusive) + " failed");
        return missed + inconclusive;
    }

    /** {@code 42172 (41800..42544)}: decimals by magnitude, n/a when not measured. */
    static String interval(Estimate estimate) {
        if (Double.isNaN(estimate.value())) {
            return "n/a";
        }
        return figure(estimate.value()) + " (" + figure(estimate.low()) + ".." + figure(estimate.high()) + ")";
    }

    static String figure(double value) {
        double size = Math.abs(value);
        return Row.number(value, size >= 100 ? 0 : size >= 10 ? 1 : 2);
    }

    static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
