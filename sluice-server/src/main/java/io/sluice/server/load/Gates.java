package io.sluice.server.load;

import io.sluice.server.Lane;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Scenarios A1, A2 and B's gates, evaluated on measured rows. At smoke scale the same gates run
 * with wider ratios (a shared 2-core machine, seconds of load); absolute numbers that only mean
 * something at full scale are replaced by ratios to the control lane. docs/SERVER.md, "Gates:
 * status", lists both forms.
 */
final class Gates {

    private final Scale scale;
    private final List<Row> rows;
    private final PrintStream out;
    private int passed;
    private int failed;
    private final List<String> notEvaluated = new ArrayList<>();

    Gates(Scale scale, List<Row> rows, PrintStream out) {
        this.scale = scale;
        this.rows = rows;
        this.out = out;
    }

    private boolean smoke() {
        return scale.name().startsWith("smoke");
    }

    /** Evaluates and prints every gate; returns how many failed. */
    int evaluateAll() {
        a1();
        a2();
        b();
        for (String reason : notEvaluated) {
            out.println("NOT EVALUATED " + reason);
        }
        out.println(passed + " passed, " + failed + " failed");
        return failed;
    }

    private void gate(String name, boolean ok, String detail) {
        out.println((ok ? "PASS " : "FAIL ") + name + ": " + detail);
        if (ok) {
            passed++;
        } else {
            failed++;
        }
    }

    private Optional<Row> find(String scenario, String step, Lane lane) {
        return rows.stream().filter(row -> row.scenario().equals(scenario) && row.step().equals(step)
                && row.lane() == lane).findFirst();
    }

    private List<String> steps(String scenario) { // in the order they ran
        return rows.stream().filter(row -> row.scenario().equals(scenario)).map(Row::step).distinct().toList();
    }

    private void a1() {
        double throughputRatio = smoke() ? 0.5 : 0.8;
        double p99Ratio = smoke() ? 3.0 : 1.5;
        for (String step : steps("A1")) {
            Optional<Row> c = find("A1", step, Lane.C);
            Optional<Row> a = find("A1", step, Lane.A);
            Optional<Row> b = find("A1", step, Lane.B);
            if (c.isEmpty() || a.isEmpty()) {
                notEvaluated.add("A1 " + step + ": lanes A and C are both needed");
                continue;
            }
            double best = Math.max(a.get().requestsPerSecond(), b.map(Row::requestsPerSecond).orElse(0.0));
            gate("A1 " + step + " lane C throughput >= " + throughputRatio + "x best other lane",
                    c.get().requestsPerSecond() >= throughputRatio * best,
                    f("C %.0f req/s, best other %.0f req/s", c.get().requestsPerSecond(), best));
            Row reference = b.orElse(a.get());
            if (b.isEmpty()) {
                notEvaluated.add("A1 " + step + " p99 vs lane B: lane B needs JDK 21+; compared with lane A instead");
            }
            gate("A1 " + step + " lane C p99 <= " + p99Ratio + "x lane " + reference.lane().flag() + " p99",
                    c.get().p99Millis() <= p99Ratio * reference.p99Millis(),
                    f("C %.1f ms, %s %.1f ms", c.get().p99Millis(), reference.lane().flag(), reference.p99Millis()));
            long errors = rows.stream().filter(row -> row.scenario().equals("A1") && row.step().equals(step))
                    .mapToLong(row -> row.errors() + row.timeouts()).sum();
            gate("A1 " + step + " no errors or timeouts on any lane", errors == 0, errors + " errors+timeouts");
        }
    }

    private void a2() {
        double plateau = scale.platformThreads() / (Scenarios.DELAY_MILLIS / 1000.0);
        double p99Limit = smoke() ? 1000 : 200;
        for (String step : steps("A2")) {
            Optional<Row> a = find("A2", step, Lane.A);
            if (a.isEmpty()) {
                notEvaluated.add("A2 " + step + ": control lane A missing");
                continue;
            }
            double control = a.get().requestsPerSecond();
            gate("A2 " + step + " control: lane A plateaus near " + scale.platformThreads() + " threads / 0.1 s",
                    control <= 1.15 * plateau && control >= 0.5 * Math.min(plateau, connections(step) * 10.0),
                    f("A %.0f req/s, plateau %.0f req/s", control, plateau));
            for (Lane lane : List.of(Lane.B, Lane.C)) {
                Optional<Row> row = find("A2", step, lane);
                if (row.isEmpty()) {
                    notEvaluated.add("A2 " + step + " lane " + lane.flag() + ": not run (lane B needs JDK 21+)");
                    continue;
                }
                double required = smoke() ? 2.0 * control : 2.0 * plateau;
                if (connections(step) * 10.0 < required) {
                    notEvaluated.add(f("A2 %s lane %s: %s connections cannot exceed %.0f req/s at 100 ms",
                            step, lane.flag(), connections(step), connections(step) * 10.0));
                } else {
                    gate("A2 " + step + " lane " + lane.flag() + (smoke() ? " >= 2x lane A" : " >= 4,000 req/s"),
                            row.get().requestsPerSecond() >= required,
                            f("%s %.0f req/s, required %.0f", lane.flag(), row.get().requestsPerSecond(), required));
                }
                gate("A2 " + step + " lane " + lane.flag() + " p99 <= " + (int) p99Limit + " ms, no timeouts",
                        row.get().p99Millis() <= p99Limit && row.get().timeouts() == 0,
                        f("p99 %.1f ms, %d timeouts", row.get().p99Millis(), row.get().timeouts()));
            }
        }
    }

    private static int connections(String step) {
        return Integer.parseInt(step.substring(0, step.indexOf(' ')));
    }

    private void b() {
        double getP99 = smoke() ? 1500 : 50;
        double putP99 = smoke() ? 1500 : 500;
        for (Lane lane : List.of(Lane.B, Lane.C)) {
            Row get = find("B", "fast GET", lane).orElse(null);
            Row put = find("B", "1 MiB PUT", lane).orElse(null);
            if (get == null || put == null) {
                notEvaluated.add("B lane " + lane.flag() + ": not run (lane B needs JDK 21+)");
                continue;
            }
            // Smoke: p99 on a shared 2-core machine measures CPU contention more than the lane, so the
            // median must show no starvation (<= 50 ms) and p99 stays under a generous 1.5 s.
            boolean medianOk = !smoke() || get.p50Millis() <= 50;
            gate("B lane " + lane.flag() + " fast-GET p99 <= " + (int) getP99 + " ms" + (smoke() ? ", p50 <= 50 ms" : "")
                    + ", no timeouts", get.p99Millis() <= getP99 && medianOk && get.timeouts() == 0,
                    f("p50 %.1f ms, p99 %.1f ms, %d timeouts", get.p50Millis(), get.p99Millis(), get.timeouts()));
            gate("B lane " + lane.flag() + " PUT p99 <= " + (int) putP99 + " ms, no timeouts, all verified",
                    put.p99Millis() <= putP99 && put.timeouts() == 0 && put.errors() == 0,
                    f("p99 %.1f ms, %d timeouts, %d errors", put.p99Millis(), put.timeouts(), put.errors()));
            gate("B lane " + lane.flag() + " peak RSS <= idle + 256 MiB", get.peakRssMiB() <= get.idleRssMiB() + 256,
                    f("idle %.0f MiB, peak %.0f MiB", get.idleRssMiB(), get.peakRssMiB()));
        }
        for (Lane lane : List.of(Lane.B, Lane.C)) {
            find("B", "fast GET", lane).ifPresent(this::rssFlatAtTheEnd);
        }
        find("B", "fast GET", Lane.A).ifPresentOrElse(a -> {
            double share = (double) a.timeouts() / Math.max(1, a.timeouts() + a.errors()
                    + Math.round(a.requestsPerSecond() * scale.runTime().toSeconds() * 2));
            String detail = f("%.1f%% timeouts, p99 %.1f ms", share * 100, a.p99Millis());
            if (smoke()) {
                // At smoke scale (16 threads, 64 slow readers, seconds of load) whether lane A is
                // starved depends on what else the shared machine runs: not a reliable control.
                notEvaluated.add("B control lane A at smoke scale (not reproducible, see docs/SERVER.md): " + detail);
            } else {
                gate("B control: lane A shows >= 5% timeouts or p99 >= 2 s", share >= 0.05 || a.p99Millis() >= 2000,
                        detail);
            }
        }, () -> notEvaluated.add("B control lane A: not run"));
        find("B", "fast GET", Lane.C_UNBOUNDED).ifPresentOrElse(u -> gate(
                "B control: C-unbounded runs out of memory or past 90% heap",
                u.note().contains("OutOfMemoryError") || u.heapPeakShare() >= 0.9,
                f("peak heap %.0f%% (sampled), heap after GC up to %s MiB (GC log), %s", u.heapPeakShare() * 100,
                        Row.number(u.heapAfterGcMiB(), 0), u.note())),
                () -> notEvaluated.add("B control C-unbounded: not run"));
    }

    /**
     * "RSS flat at the end", made precise: over a {@value Drain#DRAIN_SECONDS} s drain after the
     * load (every client closed), RSS never rises more than {@link #drainRiseMiB()} above its value
     * at the end of the load (nothing keeps growing once traffic stops), and the heap live set after
     * the drain (a forced full GC) is within {@link #LIVE_SET_SLACK_MIB} of the idle live set (what
     * the connections held was let go). When jcmd is missing only the RSS half is checked, and the
     * detail says so.
     */
    private void rssFlatAtTheEnd(Row row) {
        Drain drain = row.drain();
        String name = "B lane " + row.lane().flag() + " RSS flat at the end (" + Drain.DRAIN_SECONDS
                + " s drain: RSS <= load end + " + (int) drainRiseMiB() + " MiB, live set <= idle + "
                + (int) LIVE_SET_SLACK_MIB + " MiB)";
        if (drain == null || Double.isNaN(drain.rssMaxOverDrainMiB())) {
            gate(name, false, "no drain measured" + (drain == null ? "" : ": " + drain.note()));
            return;
        }
        boolean rssFlat = drain.rssMaxOverDrainMiB() <= drain.rssAtLoadEndMiB() + drainRiseMiB();
        boolean liveMeasured = !Double.isNaN(drain.liveSetIdleMiB()) && !Double.isNaN(drain.liveSetAfterDrainMiB());
        boolean liveBack = !liveMeasured || drain.liveSetAfterDrainMiB() <= drain.liveSetIdleMiB() + LIVE_SET_SLACK_MIB;
        gate(name, rssFlat && liveBack, f("idle %.0f, peak %.0f, load end %.0f, drain max %.0f, after drain %.0f MiB; ",
                row.idleRssMiB(), row.peakRssMiB(), drain.rssAtLoadEndMiB(), drain.rssMaxOverDrainMiB(),
                drain.rssAfterDrainMiB())
                + (liveMeasured ? f("live set idle %.1f, after drain %.1f MiB", drain.liveSetIdleMiB(),
                        drain.liveSetAfterDrainMiB()) : "live set not measured (" + drain.note() + "), RSS only"));
    }

    /** Allowed RSS rise over the drain: a shared 2-core machine at smoke scale gets more room. */
    private double drainRiseMiB() {
        return smoke() ? 32 : 16;
    }

    static final double LIVE_SET_SLACK_MIB = 32;

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
