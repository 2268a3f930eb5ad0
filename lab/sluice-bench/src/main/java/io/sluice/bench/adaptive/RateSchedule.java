package io.sluice.bench.adaptive;

import io.sluice.lab.Schedule;
import io.sluice.lab.ScheduledPublisher;
import io.sluice.lab.ThrottledChannel;

import java.util.List;

/**
 * A rate in bytes per second as a cyclic, piecewise-constant function of time since an origin:
 * constant, steps (such as 20 ↔ 200 MiB/s every 2 s), stalls (rate 0 for a few hundred ms), or
 * unlimited. The same schedule paces the real {@link ThrottledChannel} and
 * {@link ScheduledPublisher} and the simulated ends in {@link DemandSimulation}. Immutable.
 */
public final class RateSchedule implements Schedule {

    /** One piece: {@code bytesPerSecond} (0: stalled; infinite: unlimited) for {@code nanos}. */
    public record Segment(long nanos, double bytesPerSecond) {
        public Segment {
            if (nanos <= 0) {
                throw new IllegalArgumentException("segment duration must be positive, was " + nanos + " ns");
            }
            if (!(bytesPerSecond >= 0)) {
                throw new IllegalArgumentException("rate must be >= 0 bytes/s, was " + bytesPerSecond);
            }
        }
    }

    public static final double MIB = 1024.0 * 1024.0;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final List<Segment> segments;
    private final long[] segmentEnds; // cumulative end of each segment within the cycle
    private final long cycleNanos;
    private final String description;

    private RateSchedule(List<Segment> segments, String description) {
        if (segments.isEmpty()) {
            throw new IllegalArgumentException("a schedule needs at least one segment");
        }
        if (segments.stream().allMatch(segment -> segment.bytesPerSecond() == 0)) {
            throw new IllegalArgumentException("a schedule must not be stalled forever: " + description);
        }
        this.segments = List.copyOf(segments);
        this.segmentEnds = new long[segments.size()];
        long end = 0;
        for (int i = 0; i < segments.size(); i++) {
            end = Math.addExact(end, segments.get(i).nanos());
            segmentEnds[i] = end;
        }
        this.cycleNanos = end;
        this.description = description;
    }

    public static RateSchedule constantMiBps(double mibPerSecond) {
        return new RateSchedule(
                List.of(new Segment(NANOS_PER_SECOND, mibPerSecond * MIB)), format(mibPerSecond) + " MiB/s");
    }

    /** No limit: every transfer finishes the moment it starts. */
    public static RateSchedule unlimited() {
        return new RateSchedule(List.of(new Segment(NANOS_PER_SECOND, Double.POSITIVE_INFINITY)), "unlimited");
    }

    /** {@code first} MiB/s for {@code periodMillis}, then {@code second} for as long, repeated. */
    public static RateSchedule stepsMiBps(double first, double second, long periodMillis) {
        long period = periodMillis * 1_000_000L;
        return new RateSchedule(
                List.of(new Segment(period, first * MIB), new Segment(period, second * MIB)),
                format(first) + " ↔ " + format(second) + " MiB/s every " + periodMillis + " ms");
    }

    /**
     * Like {@link #stepsMiBps} but each phase begins with a stall of {@code stallMillis}: the
     * stall comes out of the phase's time.
     */
    public static RateSchedule stepsWithStallsMiBps(double first, double second, long periodMillis, long stallMillis) {
        if (stallMillis <= 0 || stallMillis >= periodMillis) {
            throw new IllegalArgumentException("stallMillis must be in (0, periodMillis), was " + stallMillis);
        }
        long stall = stallMillis * 1_000_000L;
        long rest = (periodMillis - stallMillis) * 1_000_000L;
        return new RateSchedule(
                List.of(
                        new Segment(stall, 0),
                        new Segment(rest, first * MIB),
                        new Segment(stall, 0),
                        new Segment(rest, second * MIB)),
                format(first) + " ↔ " + format(second) + " MiB/s every " + periodMillis + " ms, each after a "
                        + stallMillis + " ms stall");
    }

    public double bytesPerSecondAt(long nanos) {
        return segments.get(indexAt(nanos)).bytesPerSecond();
    }

    @Override
    public long finishNanos(long startNanos, long bytes) {
        if (startNanos < 0) {
            throw new IllegalArgumentException("startNanos must not be negative, was " + startNanos);
        }
        double remaining = bytes;
        long atNanos = startNanos;
        while (remaining > 0) {
            double rate = bytesPerSecondAt(atNanos);
            long segmentEnd = segmentEndAfter(atNanos);
            if (rate == Double.POSITIVE_INFINITY) {
                return atNanos;
            }
            if (rate > 0) {
                double nanosNeeded = remaining * NANOS_PER_SECOND / rate;
                if (atNanos + nanosNeeded <= segmentEnd) {
                    return atNanos + (long) Math.ceil(nanosNeeded);
                }
                remaining -= rate * (segmentEnd - atNanos) / NANOS_PER_SECOND;
            }
            atNanos = segmentEnd;
        }
        return atNanos;
    }

    /** When the segment that holds {@code nanos} (since the origin) ends: the next change of rate, or a repeat. */
    public long segmentEndAfter(long nanos) {
        return nanos - Math.floorMod(nanos, cycleNanos) + segmentEnds[indexAt(nanos)];
    }

    public List<Segment> segments() {
        return segments;
    }

    private int indexAt(long nanos) {
        long position = Math.floorMod(nanos, cycleNanos);
        for (int i = 0; i < segmentEnds.length; i++) {
            if (position < segmentEnds[i]) {
                return i;
            }
        }
        throw new AssertionError("position " + position + " beyond cycle " + cycleNanos);
    }

    private static String format(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }

    @Override
    public String toString() {
        return description;
    }
}
