package io.sluice.bench.adaptive;

import io.sluice.lab.Csv;
import io.sluice.lab.DemandRun;
import io.sluice.lab.Load;

import java.util.List;
import java.util.Locale;

/**
 * One strategy's run of {@link SharedSink} on one kind of producers, or its rounds within one repetition
 * combined ({@link #combine}): the aggregate throughput and the writers' peak queued bytes, and from stream 0's
 * series ({@link #streamZero}) its window: the smallest and largest, its time-weighted means over fast and over
 * slow periods, and the fast-to-slow switches it lived through, with how many of them it shrank after (its
 * minimum in the slow period below its value at the fast period's end) and how many found it above its
 * smallest.
 *
 * @param producers what wrote
 * @param strategy the strategy's name
 * @param mibPerSecond all bytes over the time until the last write ended
 * @param seconds that time
 * @param peakQueuedBytes the most bytes queued in all writers together after a pass of one of them
 * @param outOfMemory whether a write failed with an {@link OutOfMemoryError} (the others were then cancelled)
 * @param windows stream 0's window over the run
 * @param scenario stream 0 as a single-stream scenario, for its window's response and its chart
 * @param streamZero stream 0's series with the run's totals: the round charted
 */
record SharedSinkResult(
        SharedSink.Producers producers,
        String strategy,
        double mibPerSecond,
        double seconds,
        long peakQueuedBytes,
        boolean outOfMemory,
        Windows windows,
        Scenario scenario,
        RunResult streamZero) {

    /** The CSV a run writes into its results folder, one row per producers, strategy and repetition. */
    static final String CSV = "adaptive-shared-sink.csv";

    static final String HEADER = "scale,producers,strategy,repetition,streams,bytes_each,period_ms,seconds,mib_s,"
            + "ideal_mib_s,peak_queued_bytes,out_of_memory,switches,shrank,above_floor,smallest_window,"
            + "largest_window,mean_fast_window,mean_slow_window,load_before,load_after,others_busy";

    /**
     * Stream 0's window over one run or several: its extremes ({@code Long.MAX_VALUE}: unbounded), the
     * fast-to-slow switches judged, and window x seconds and seconds in fast periods, then in slow ones.
     */
    record Windows(
            long smallest,
            long largest,
            int switches,
            int shrank,
            int aboveFloor,
            double fastWindowSeconds,
            double fastSeconds,
            double slowWindowSeconds,
            double slowSeconds) {

        /** Its time-weighted mean in fast periods, in items. */
        double meanFast() {
            return fastSeconds == 0 ? 0 : fastWindowSeconds / fastSeconds;
        }

        /** Its time-weighted mean in slow periods, in items. */
        double meanSlow() {
            return slowSeconds == 0 ? 0 : slowWindowSeconds / slowSeconds;
        }

        Windows plus(Windows other) {
            return new Windows(
                    Math.min(smallest, other.smallest),
                    Math.max(largest, other.largest),
                    switches + other.switches,
                    shrank + other.shrank,
                    aboveFloor + other.aboveFloor,
                    fastWindowSeconds + other.fastWindowSeconds,
                    fastSeconds + other.fastSeconds,
                    slowWindowSeconds + other.slowWindowSeconds,
                    slowSeconds + other.slowSeconds);
        }

        /**
         * Read from stream 0's series on the shared sink. Each interval between samples counts at the earlier
         * sample's window, in the sink's period at that sample. A fast-to-slow switch is judged only if the
         * series goes on past the slow period's end: a write that ended inside it had requested all its items
         * before it began, so could not adapt.
         */
        static Windows of(SharedSink size, Scenario scenario, RunResult series) {
            List<RunResult.Sample> samples = series.series();
            if (samples.isEmpty()) {
                return new Windows(0, 0, 0, 0, 0, 0, 0, 0, 0);
            }
            long smallest = samples.stream()
                    .mapToLong(RunResult.Sample::windowItems)
                    .min()
                    .orElseThrow();
            long largest = samples.stream()
                    .mapToLong(RunResult.Sample::windowItems)
                    .max()
                    .orElseThrow();
            double[] time = new double[4];
            RateSchedule sink = scenario.sink();
            for (int i = 0; i + 1 < samples.size(); i++) {
                RunResult.Sample sample = samples.get(i);
                double seconds = (samples.get(i + 1).nanos() - sample.nanos()) / 1e9;
                int phase =
                        sink.bytesPerSecondAt(sample.nanos()) >= SharedSink.FAST_SINK_MIB * RateSchedule.MIB ? 0 : 2;
                time[phase] += (double) sample.windowItems() * seconds;
                time[phase + 1] += seconds;
            }
            long last = samples.get(samples.size() - 1).nanos();
            long period = size.periodNanos();
            List<WindowResponse.Switch> judged = WindowResponse.switches(scenario, series).stream()
                    .filter(change -> change.toSlower() && change.atNanos() + period <= last)
                    .toList();
            int shrank = (int) judged.stream()
                    .filter(change -> change.reactionNanos() >= 0 && change.reactionNanos() < period)
                    .count();
            int aboveFloor = (int) judged.stream()
                    .filter(change -> change.windowBefore() > smallest)
                    .count();
            return new Windows(
                    smallest, largest, judged.size(), shrank, aboveFloor, time[0], time[1], time[2], time[3]);
        }
    }

    /** One run's result. */
    static SharedSinkResult of(
            SharedSink size,
            SharedSink.Producers producers,
            String strategy,
            DemandRun.Result run,
            Scenario scenario,
            RunResult streamZero) {
        return new SharedSinkResult(
                producers,
                strategy,
                run.mibPerSecond(),
                run.elapsedNanos() / 1e9,
                run.peakQueuedBytes(),
                run.outOfMemory(),
                Windows.of(size, scenario, streamZero),
                scenario,
                streamZero);
    }

    /**
     * Two rounds of one strategy: the faster round's throughput, every other figure over both; the later
     * round's series, so that a chart's times run from one sink start.
     */
    SharedSinkResult combine(SharedSinkResult later) {
        SharedSinkResult faster = later.mibPerSecond > mibPerSecond ? later : this;
        return new SharedSinkResult(
                producers,
                strategy,
                faster.mibPerSecond,
                faster.seconds,
                Math.max(peakQueuedBytes, later.peakQueuedBytes),
                outOfMemory || later.outOfMemory,
                windows.plus(later.windows),
                later.scenario,
                later.streamZero);
    }

    /** Its row of {@link #CSV}: repetition {@code repetition} of {@code size}, with the machine's load meanwhile. */
    String csv(SharedSink size, int repetition, Load load) {
        return String.format(
                Locale.ROOT,
                "%s,%s,%s,%d,%d,%d,%d,%.3f,%.2f,%s,%d,%b,%d,%d,%d,%d,%d,%.1f,%.1f,%.2f,%.2f,%.3f",
                size.scale(),
                producers.label,
                Csv.quote(strategy),
                repetition,
                size.streams(),
                size.bytesEach(),
                size.periodMillis(),
                seconds,
                mibPerSecond,
                producers == SharedSink.Producers.PACED
                        ? String.format(Locale.ROOT, "%.2f", size.idealPacedMibPerSecond(seconds))
                        : "",
                peakQueuedBytes,
                outOfMemory,
                windows.switches(),
                windows.shrank(),
                windows.aboveFloor(),
                windows.smallest(),
                windows.largest(),
                windows.meanFast(),
                windows.meanSlow(),
                load.load1Before(),
                load.load1After(),
                load.othersBusy());
    }
}
