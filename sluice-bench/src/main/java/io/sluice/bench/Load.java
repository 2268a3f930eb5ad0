package io.sluice.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The machine's load around one cell, measured by the fork that runs it: the 1-minute load
 * average before and after the cell, and {@code othersBusy}, the share of all cores that work other
 * than this fork kept busy during the cell (0 to 1: busy time from {@code /proc/stat}, steal
 * included, minus this process's CPU time). The load average counts the bench's own threads and
 * decays over minutes, so after a cell with 100 threads it stays high through the next cell; it is
 * recorded for the reader, and {@code othersBusy}, which leaves the fork's own work out, decides
 * whether a cell was quiet. Kernel threads count as others, page-cache writeback included. NaN
 * where the platform does not say ({@code /proc} is Linux only).
 */
public record Load(double load1Before, double load1After, double othersBusy) {

    public static final Load UNKNOWN = new Load(Double.NaN, Double.NaN, Double.NaN);

    /** A cell during which other work kept more than this share of the cores busy is noisy. */
    public static final double NOISY_ABOVE = 0.25;

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /** Whether other work kept more than {@link #NOISY_ABOVE} of the cores busy; false if unknown. */
    public boolean noisy() {
        return othersBusy > NOISY_ABOVE;
    }

    /** A measurement in progress: created before the cell's first round. */
    public static final class Meter {
        private final double load1 = load1();
        private final long[] ticks = busyAndTotalTicks();
        private final long ownCpuNanos = OS.getProcessCpuTime();
        private final long began = System.nanoTime();

        /** The load since this meter was created: call after the cell's last round. */
        public Load stop() {
            long ownCpu = OS.getProcessCpuTime() - ownCpuNanos;
            long wall = System.nanoTime() - began;
            long[] now = busyAndTotalTicks();
            double others = Double.NaN;
            if (ticks != null && now != null && now[1] > ticks[1]) {
                double busy = (double) (now[0] - ticks[0]) / (now[1] - ticks[1]);
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

    /** Busy and total ticks of all cores and the number of cores, from {@code /proc/stat}; null if unreadable. */
    private static long[] busyAndTotalTicks() {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/stat"));
            String[] f = lines.get(0).trim().split("\\s+"); // cpu user nice system idle iowait irq softirq steal ...
            long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
            long total = 0;
            for (int i = 1; i <= 8 && i < f.length; i++) {
                total += Long.parseLong(f[i]);
            }
            long cores = lines.stream().filter(line -> line.matches("cpu\\d+ .*")).count();
            return new long[] {total - idle, total, cores};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
