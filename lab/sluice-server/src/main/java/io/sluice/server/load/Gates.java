package io.sluice.server.load;

import io.sluice.lab.Estimate;
import io.sluice.server.Lane;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

import static io.sluice.server.load.GateBook.check;
import static io.sluice.server.load.GateBook.f;

/**
 * Scenarios A1, A2 and B's gates on measured rows; at smoke scale wider ratios, and ratios to the control lane
 * in place of absolute figures (lab/docs/SERVER.md, "Gates: status"). With repeats a figure is the mean over them (a
 * ratio: of the lanes' means) judged by its 95% interval ({@link GateBook}); a line's one-sample figures are
 * repeat 1's.
 */
final class Gates {

    private final Scale scale;
    private final List<List<Row>> repeats; // the rows of repeat 1, 2, ...
    private final List<Row> rows; // repeat 1: what a one-sample line quotes
    private final GateBook book;
    private final PrintStream out;
    private final List<String> notEvaluated = new ArrayList<>();

    Gates(List<List<Row>> repeats, Scale scale, PrintStream out) {
        this.scale = scale;
        this.repeats = repeats;
        this.rows = repeats.get(0);
        this.book = new GateBook(repeats.size(), out);
        this.out = out;
    }

    private boolean smoke() {
        return scale.name().startsWith("smoke");
    }

    /** Evaluates and prints every gate; returns how many failed (one repeat) or were missed (repeats). */
    int evaluateAll() {
        a1();
        a2();
        b();
        for (String reason : notEvaluated) {
            out.println("NOT EVALUATED " + reason);
        }
        return book.close();
    }

    private Optional<Row> find(String scenario, String step, Lane lane) {
        return find(rows, scenario, step, lane);
    }

    private static Optional<Row> find(List<Row> rows, String scenario, String step, Lane lane) {
        return rows.stream()
                .filter(row -> row.scenario().equals(scenario) && row.step().equals(step) && row.lane() == lane)
                .findFirst();
    }

    /** {@code figure} of that row in every repeat that has it. */
    private double[] each(String scenario, String step, Lane lane, ToDoubleFunction<Row> figure) {
        return repeats.stream()
                .map(repeat -> find(repeat, scenario, step, lane))
                .flatMap(Optional::stream)
                .mapToDouble(figure)
                .toArray();
    }

    /**
     * {@code top}'s mean {@code figure} over {@code bottom}'s, the two lanes' rows of one repeat taken
     * as a pair: repeats are interleaved (repeat 1 of every lane, then repeat 2 ...), so a drift of
     * the machine between repeats cancels ({@link Estimate#ratioOfMeansInTurns}).
     */
    private Estimate ratio(String scenario, String step, Lane top, Lane bottom, ToDoubleFunction<Row> figure) {
        List<Integer> topTurns = new ArrayList<>();
        List<Double> topValues = new ArrayList<>();
        List<Integer> bottomTurns = new ArrayList<>();
        List<Double> bottomValues = new ArrayList<>();
        for (int repeat = 0; repeat < repeats.size(); repeat++) {
            int turn = repeat;
            find(repeats.get(repeat), scenario, step, top).ifPresent(row -> {
                topTurns.add(turn);
                topValues.add(figure.applyAsDouble(row));
            });
            find(repeats.get(repeat), scenario, step, bottom).ifPresent(row -> {
                bottomTurns.add(turn);
                bottomValues.add(figure.applyAsDouble(row));
            });
        }
        return Estimate.ratioOfMeansInTurns(
                topTurns.stream().mapToInt(Integer::intValue).toArray(),
                topValues.stream().mapToDouble(Double::doubleValue).toArray(),
                bottomTurns.stream().mapToInt(Integer::intValue).toArray(),
                bottomValues.stream().mapToDouble(Double::doubleValue).toArray());
    }

    private Estimate mean(String scenario, String step, Lane lane, ToDoubleFunction<Row> figure) {
        return Estimate.mean(each(scenario, step, lane, figure));
    }

    private List<String> steps(String scenario) { // in the order they ran
        return rows.stream()
                .filter(row -> row.scenario().equals(scenario))
                .map(Row::step)
                .distinct()
                .toList();
    }

    private void a1() {
        double throughputRatio = smoke() ? 0.5 : 0.8;
        double p99Ratio = smoke() ? 3.0 : 1.5;
        for (String step : steps("A1")) {
            Optional<Row> laneC = find("A1", step, Lane.C);
            Optional<Row> laneA = find("A1", step, Lane.A);
            Optional<Row> laneB = find("A1", step, Lane.B);
            if (laneC.isEmpty() || laneA.isEmpty()) {
                notEvaluated.add("A1 " + step + ": lanes A and C are both needed");
                continue;
            }
            Lane best = laneB.isPresent()
                            && mean("A1", step, Lane.B, Row::requestsPerSecond).value()
                                    > mean("A1", step, Lane.A, Row::requestsPerSecond)
                                            .value()
                    ? Lane.B
                    : Lane.A;
            double bestFirst = Math.max(
                    laneA.get().requestsPerSecond(),
                    laneB.map(Row::requestsPerSecond).orElse(0.0));
            book.all(
                    "A1 " + step + " lane C throughput >= " + throughputRatio + "x best other lane",
                    f("C %.0f req/s, best other %.0f req/s", laneC.get().requestsPerSecond(), bestFirst),
                    List.of(check(
                            "C / " + best.flag() + " req/s",
                            ratio("A1", step, Lane.C, best, Row::requestsPerSecond),
                            throughputRatio,
                            false)));
            Row reference = laneB.orElse(laneA.get());
            if (laneB.isEmpty()) {
                notEvaluated.add("A1 " + step + " p99 vs lane B: lane B needs JDK 21+; compared with lane A instead");
            }
            book.all(
                    "A1 " + step + " lane C p99 <= " + p99Ratio + "x lane "
                            + reference.lane().flag() + " p99",
                    f(
                            "C %.1f ms, %s %.1f ms",
                            laneC.get().p99Millis(), reference.lane().flag(), reference.p99Millis()),
                    List.of(check(
                            "C / " + reference.lane().flag() + " p99",
                            ratio("A1", step, Lane.C, reference.lane(), Row::p99Millis),
                            p99Ratio,
                            true)));
            double[] errorsPerRepeat = repeats.stream()
                    .mapToDouble(repeat -> repeat.stream()
                            .filter(row ->
                                    row.scenario().equals("A1") && row.step().equals(step))
                            .mapToLong(row -> row.errors() + row.timeouts())
                            .sum())
                    .toArray();
            book.all(
                    "A1 " + step + " no errors or timeouts on any lane",
                    (long) errorsPerRepeat[0] + " errors+timeouts",
                    List.of(check("errors+timeouts", Estimate.mean(errorsPerRepeat), 0, true)));
        }
    }

    private void a2() {
        double plateau = scale.platformThreads() / (Scenarios.DELAY_MILLIS / 1000.0);
        double p99Limit = smoke() ? 1000 : 200;
        for (String step : steps("A2")) {
            Optional<Row> laneA = find("A2", step, Lane.A);
            if (laneA.isEmpty()) {
                notEvaluated.add("A2 " + step + ": control lane A missing");
                continue;
            }
            Estimate control = mean("A2", step, Lane.A, Row::requestsPerSecond);
            book.all(
                    "A2 " + step + " control: lane A plateaus near " + scale.platformThreads() + " threads / 0.1 s",
                    f("A %.0f req/s, plateau %.0f req/s", laneA.get().requestsPerSecond(), plateau),
                    List.of(
                            check("A req/s", control, 1.15 * plateau, true),
                            check("A req/s", control, 0.5 * Math.min(plateau, connections(step) * 10.0), false)));
            for (Lane lane : List.of(Lane.B, Lane.C)) {
                Optional<Row> row = find("A2", step, lane);
                if (row.isEmpty()) {
                    notEvaluated.add("A2 " + step + " lane " + lane.flag() + ": not run (lane B needs JDK 21+)");
                    continue;
                }
                double required = smoke() ? 2.0 * control.value() : 2.0 * plateau;
                if (connections(step) * 10.0 < required) {
                    notEvaluated.add(f(
                            "A2 %s lane %s: %s connections cannot exceed %.0f req/s at 100 ms",
                            step, lane.flag(), connections(step), connections(step) * 10.0));
                } else {
                    double[] throughput = each("A2", step, lane, Row::requestsPerSecond);
                    book.all(
                            "A2 " + step + " lane " + lane.flag() + (smoke() ? " >= 2x lane A" : " >= 4,000 req/s"),
                            f(
                                    "%s %.0f req/s, required %.0f",
                                    lane.flag(),
                                    row.get().requestsPerSecond(),
                                    smoke() ? 2.0 * laneA.get().requestsPerSecond() : required),
                            List.of(
                                    smoke()
                                            ? check(
                                                    lane.flag() + " / A req/s",
                                                    ratio("A2", step, lane, Lane.A, Row::requestsPerSecond),
                                                    2.0,
                                                    false)
                                            : check(
                                                    lane.flag() + " req/s",
                                                    Estimate.mean(throughput),
                                                    required,
                                                    false)));
                }
                book.all(
                        "A2 " + step + " lane " + lane.flag() + " p99 <= " + (int) p99Limit + " ms, no timeouts",
                        f(
                                "p99 %.1f ms, %d timeouts",
                                row.get().p99Millis(), row.get().timeouts()),
                        List.of(
                                check("p99 ms", mean("A2", step, lane, Row::p99Millis), p99Limit, true),
                                check("timeouts", mean("A2", step, lane, Row::timeouts), 0, true)));
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
            List<GateBook.Check> getChecks = new ArrayList<>(List.of(
                    check("p99 ms", mean("B", "fast GET", lane, Row::p99Millis), getP99, true),
                    check("timeouts", mean("B", "fast GET", lane, Row::timeouts), 0, true)));
            if (smoke()) {
                getChecks.add(check("p50 ms", mean("B", "fast GET", lane, Row::p50Millis), 50, true));
            }
            book.all(
                    "B lane " + lane.flag() + " fast-GET p99 <= " + (int) getP99 + " ms"
                            + (smoke() ? ", p50 <= 50 ms" : "") + ", no timeouts",
                    f("p50 %.1f ms, p99 %.1f ms, %d timeouts", get.p50Millis(), get.p99Millis(), get.timeouts()),
                    getChecks);
            book.all(
                    "B lane " + lane.flag() + " PUT p99 <= " + (int) putP99 + " ms, no timeouts, all verified",
                    f("p99 %.1f ms, %d timeouts, %d errors", put.p99Millis(), put.timeouts(), put.errors()),
                    List.of(
                            check("p99 ms", mean("B", "1 MiB PUT", lane, Row::p99Millis), putP99, true),
                            check("timeouts", mean("B", "1 MiB PUT", lane, Row::timeouts), 0, true),
                            check("errors", mean("B", "1 MiB PUT", lane, Row::errors), 0, true)));
            book.all(
                    "B lane " + lane.flag() + " peak RSS <= idle + 256 MiB",
                    f("idle %.0f MiB, peak %.0f MiB", get.idleRssMiB(), get.peakRssMiB()),
                    List.of(check(
                            "peak - idle RSS MiB",
                            mean("B", "fast GET", lane, row -> row.peakRssMiB() - row.idleRssMiB()),
                            256,
                            true)));
        }
        for (Lane lane : List.of(Lane.B, Lane.C)) {
            find("B", "fast GET", lane).ifPresent(this::rssFlatAtTheEnd);
        }
        find("B", "fast GET", Lane.A)
                .ifPresentOrElse(
                        laneA -> {
                            String detail =
                                    f("%.1f%% timeouts, p99 %.1f ms", timeoutShare(laneA) * 100, laneA.p99Millis());
                            if (smoke()) {
                                // At smoke scale (16 threads, 64 slow readers, seconds of load) whether lane A is
                                // starved depends on what else the shared machine runs: not a reliable control.
                                notEvaluated.add(
                                        "B control lane A at smoke scale (not reproducible, see lab/docs/SERVER.md): "
                                                + detail);
                            } else {
                                book.any(
                                        "B control: lane A shows >= 5% timeouts or p99 >= 2 s",
                                        detail,
                                        List.of(
                                                check(
                                                        "timeout share",
                                                        mean("B", "fast GET", Lane.A, this::timeoutShare),
                                                        0.05,
                                                        false),
                                                check(
                                                        "p99 ms",
                                                        mean("B", "fast GET", Lane.A, Row::p99Millis),
                                                        2000,
                                                        false)));
                            }
                        },
                        () -> notEvaluated.add("B control lane A: not run"));
        find("B", "fast GET", Lane.C_UNBOUNDED)
                .ifPresentOrElse(
                        unbounded -> book.all(
                                "B control: C-unbounded runs out of memory or past 90% heap",
                                f(
                                        "peak heap %.0f%% (sampled), heap after GC up to %s MiB (GC log), %s",
                                        unbounded.heapPeakShare() * 100,
                                        Row.number(unbounded.heapAfterGcMiB(), 0),
                                        unbounded.note()),
                                List.of(check(
                                        "peak heap share (1 if out of memory)",
                                        mean(
                                                "B",
                                                "fast GET",
                                                Lane.C_UNBOUNDED,
                                                row -> row.note().contains("OutOfMemoryError")
                                                        ? 1
                                                        : row.heapPeakShare()),
                                        0.9,
                                        false))),
                        () -> notEvaluated.add("B control C-unbounded: not run"));
    }

    /** Lane A's timeouts in B as a share of every request it sent (fast GETs and PUTs over the load time). */
    private double timeoutShare(Row laneA) {
        return (double) laneA.timeouts()
                / Math.max(
                        1,
                        laneA.timeouts()
                                + laneA.errors()
                                + Math.round(laneA.requestsPerSecond()
                                        * scale.runTime().toSeconds()
                                        * 2));
    }

    /**
     * "RSS flat at the end": over the drain RSS rises at most {@link #drainRiseMiB()} above its value at the
     * load's end, and the live set after it is within {@link #LIVE_SET_SLACK_MIB} of the idle one (only the RSS
     * half when jcmd is missing in any repeat).
     */
    private void rssFlatAtTheEnd(Row row) {
        Drain drain = row.drain();
        String name = "B lane " + row.lane().flag() + " RSS flat at the end (" + Drain.DRAIN_SECONDS
                + " s drain: RSS <= load end + " + (int) drainRiseMiB() + " MiB, live set <= idle + "
                + (int) LIVE_SET_SLACK_MIB + " MiB)";
        List<Drain> drains = repeats.stream()
                .map(repeat -> find(repeat, "B", "fast GET", row.lane()))
                .flatMap(Optional::stream)
                .map(Row::drain)
                .toList();
        if (drains.stream()
                .anyMatch(repeatDrain -> repeatDrain == null || Double.isNaN(repeatDrain.rssMaxOverDrainMiB()))) {
            book.unmeasured(name, "no drain measured" + (drain == null ? "" : ": " + drain.note()));
            return;
        }
        boolean liveMeasured = drains.stream()
                .allMatch(repeatDrain -> !Double.isNaN(repeatDrain.liveSetIdleMiB())
                        && !Double.isNaN(repeatDrain.liveSetAfterDrainMiB()));
        List<GateBook.Check> checks = new ArrayList<>(List.of(check(
                "drain max - load end RSS MiB",
                Estimate.mean(drains.stream()
                        .mapToDouble(repeatDrain -> repeatDrain.rssMaxOverDrainMiB() - repeatDrain.rssAtLoadEndMiB())
                        .toArray()),
                drainRiseMiB(),
                true)));
        if (liveMeasured) {
            checks.add(check(
                    "live set after drain - idle MiB",
                    Estimate.mean(drains.stream()
                            .mapToDouble(
                                    repeatDrain -> repeatDrain.liveSetAfterDrainMiB() - repeatDrain.liveSetIdleMiB())
                            .toArray()),
                    LIVE_SET_SLACK_MIB,
                    true));
        }
        boolean firstLiveMeasured =
                !Double.isNaN(drain.liveSetIdleMiB()) && !Double.isNaN(drain.liveSetAfterDrainMiB());
        book.all(
                name,
                f(
                                "idle %.0f, peak %.0f, load end %.0f, drain max %.0f, after drain %.0f MiB; ",
                                row.idleRssMiB(),
                                row.peakRssMiB(),
                                drain.rssAtLoadEndMiB(),
                                drain.rssMaxOverDrainMiB(),
                                drain.rssAfterDrainMiB())
                        + (firstLiveMeasured
                                ? f(
                                        "live set idle %.1f, after drain %.1f MiB",
                                        drain.liveSetIdleMiB(), drain.liveSetAfterDrainMiB())
                                : "live set not measured (" + drain.note() + "), RSS only"),
                checks);
    }

    /** Allowed RSS rise over the drain: a shared 2-core machine at smoke scale gets more room. */
    private double drainRiseMiB() {
        return smoke() ? 32 : 16;
    }

    static final double LIVE_SET_SLACK_MIB = 32;
}
