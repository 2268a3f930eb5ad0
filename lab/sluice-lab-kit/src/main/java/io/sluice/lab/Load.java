package io.sluice.lab;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The machine's load around one measurement: the 1-minute load average before and after (for the
 * reader: it counts the measurement's own threads and decays over minutes), and {@code othersBusy},
 * the share of all cores (0 to 1) that work other than the measurement's own kept busy meanwhile:
 * busy time from {@code /proc/stat}, steal and kernel threads included, minus the CPU time of this
 * process, of its waited-for children (a {@code wrk} run) and of any process it names (the server
 * under load). {@code othersBusy} decides whether a measurement was quiet. NaN where unknown.
 */
public record Load(double load1Before, double load1After, double othersBusy) {

    public static final Load UNKNOWN = new Load(Double.NaN, Double.NaN, Double.NaN);

    /** A measurement during which other work kept more than this share of the cores busy is noisy. */
    public static final double NOISY_ABOVE = 0.25;

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /** Whether other work kept more than {@link #NOISY_ABOVE} of the cores busy; false if unknown. */
    public boolean noisy() {
        return othersBusy > NOISY_ABOVE;
    }

    /** A measurement in progress: created when it starts, used by one thread. */
    public static final class Meter {
        private final double load1 = load1();
        private final long[] ticks = busyAndTotalTicks();
        private final long childTicks = waitedChildrenTicks();
        private final long ownCpuNanos = OS.getProcessCpuTime();
        private final long began = System.nanoTime();

        /** The load since this meter was created: call when the measurement ends. */
        public Load stop() {
            return stop(0);
        }

        /** The load since this meter was created, {@code alsoOwnCpuNanos} of another process's CPU time as own. */
        public Load stop(long alsoOwnCpuNanos) {
            long ownCpu = OS.getProcessCpuTime() - ownCpuNanos + alsoOwnCpuNanos;
            long wall = System.nanoTime() - began;
            long[] now = busyAndTotalTicks();
            long children = waitedChildrenTicks() - childTicks;
            double others = Double.NaN;
            if (ticks != null && now != null && now[1] > ticks[1] && children >= 0) {
                long total = now[1] - ticks[1];
                double busy = (double) (now[0] - ticks[0] - children) / total;
                others = Math.max(0, busy - (double) ownCpu / wall / now[2]);
            }
            return new Load(load1, load1(), others);
        }
    }

    private static double load1() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            double load = OS.getSystemLoadAverage();
            return load < 0 ? Double.NaN : load;
        }
    }

    /** Ticks of this process's waited-for children ({@code cutime + cstime} of /proc/self/stat); -1 if unknown. */
    private static long waitedChildrenTicks() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+"); // from field 3, state
            return Long.parseLong(fields[13]) + Long.parseLong(fields[14]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Busy and total ticks of all cores and the number of cores, from {@code /proc/stat}; null if unreadable. */
    private static long[] busyAndTotalTicks() {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/stat"));
            String[] fields =
                    lines.get(0).trim().split("\\s+"); // cpu user nice system idle iowait irq softirq steal ...
            long idle = Long.parseLong(fields[4]) + Long.parseLong(fields[5]);
            long total = 0;
            for (int i = 1; i <= 8 && i < fields.length; i++) {
                total += Long.parseLong(fields[i]);
            }
            long cores =
                    lines.stream().filter(line -> line.matches("cpu\\d+ .*")).count();
            return new long[] {total - idle, total, cores};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
