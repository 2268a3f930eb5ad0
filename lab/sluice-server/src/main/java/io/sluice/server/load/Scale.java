package io.sluice.server.load;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * How big a run is: {@link #FULL} the measured one, {@link #SMOKE} CI's (with a smaller lane A pool, so its
 * plateau is reachable on 2 cores). {@code warmUpMin} is also B's whole warm-up; {@code serverHeap} is -Xmx.
 */
record Scale(
        String name,
        int platformThreads,
        int[] a1Connections,
        int[] a2Connections,
        Duration runTime,
        Duration warmUpMin,
        Duration warmUpMax,
        int slowReaders,
        int slowWriters,
        int slowUploadBytes,
        long slowFileBytes,
        double fastGetsPerSecond,
        double putsPerSecond,
        Duration requestTimeout,
        String serverHeap) {

    static final Scale SMOKE = new Scale(
            "smoke",
            16,
            new int[] {16},
            new int[] {64},
            Duration.ofSeconds(4),
            Duration.ofSeconds(1),
            Duration.ofSeconds(1),
            64,
            4,
            64 * 1024,
            32L * 1024 * 1024,
            40,
            2,
            Duration.ofSeconds(2),
            "256m");

    static final Scale FULL = new Scale(
            "full",
            200,
            new int[] {64, 256, 1024},
            new int[] {64, 128, 256, 512},
            Duration.ofSeconds(20),
            Duration.ofSeconds(15),
            Duration.ofSeconds(45),
            256,
            64,
            1024 * 1024,
            64L * 1024 * 1024,
            400,
            10,
            Duration.ofSeconds(5),
            "1g");

    Scale withRunTime(Duration time) {
        return new Scale(
                name + "(" + time.toSeconds() + "s)",
                platformThreads,
                a1Connections,
                a2Connections,
                time,
                warmUpMin,
                warmUpMax,
                slowReaders,
                slowWriters,
                slowUploadBytes,
                slowFileBytes,
                fastGetsPerSecond,
                putsPerSecond,
                requestTimeout,
                serverHeap);
    }

    /** {@code smoke} or {@code full}, or a {@link #name()} with its load time, such as {@code full(8s)}. */
    static Scale parse(String name) {
        Matcher reduced = REDUCED.matcher(name);
        String base = reduced.matches() ? reduced.group(1) : name;
        Scale scale = Stream.of(SMOKE, FULL)
                .filter(known -> known.name.equals(base))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("scale must be smoke or full, was " + name));
        return reduced.matches() ? scale.withRunTime(Duration.ofSeconds(Long.parseLong(reduced.group(2)))) : scale;
    }

    private static final Pattern REDUCED = Pattern.compile("(\\w+)\\((\\d+)s\\)");
}
