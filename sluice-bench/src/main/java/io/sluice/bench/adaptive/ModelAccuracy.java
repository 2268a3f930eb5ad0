package io.sluice.bench.adaptive;

import io.sluice.bench.adaptive.ScenarioMain.Comparison;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** How close the model came to the measurements: throughput and peak queued bytes, model / measured. */
final class ModelAccuracy {

    private ModelAccuracy() {
    }

    static String summarize(List<Comparison> runs) {
        double[] throughput = runs.stream()
                .mapToDouble(c -> c.model().mibPerSecond() / Math.max(1e-9, c.measured().mibPerSecond())).toArray();
        double[] peaks = runs.stream().filter(c -> c.measured().peakQueuedBytes() > 0)
                .mapToDouble(c -> (double) c.model().peakQueuedBytes() / c.measured().peakQueuedBytes()).toArray();
        StringBuilder b = new StringBuilder("## Model vs measurement\n\n");
        b.append(line("throughput, model / measured", throughput));
        b.append(line("peak queued bytes, model / measured", peaks));
        Comparison worst = runs.stream().max((x, y) -> Double.compare(error(x), error(y))).orElse(null);
        if (worst != null) {
            b.append(String.format(Locale.ROOT, "- worst throughput: %s / %s, model %.1f vs measured %.1f MiB/s%n",
                    worst.scenario().name(), worst.strategy().name(), worst.model().mibPerSecond(),
                    worst.measured().mibPerSecond()));
        }
        return b.append('\n').toString();
    }

    private static double error(Comparison c) {
        return Math.abs(Math.log(c.model().mibPerSecond() / Math.max(1e-9, c.measured().mibPerSecond())));
    }

    private static String line(String what, double[] ratios) {
        if (ratios.length == 0) {
            return "- " + what + ": no runs\n";
        }
        double[] errors = Arrays.stream(ratios).map(r -> Math.abs(r - 1)).sorted().toArray();
        long within10 = Arrays.stream(errors).filter(e -> e <= 0.10).count();
        long within25 = Arrays.stream(errors).filter(e -> e <= 0.25).count();
        return String.format(Locale.ROOT, "- %s: median |error| %.1f%%, %d of %d within 10%%, %d within 25%%, worst %.1f%%%n",
                what, 100 * errors[errors.length / 2], within10, errors.length, within25,
                100 * errors[errors.length - 1]);
    }
}
