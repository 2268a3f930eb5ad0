package io.sluice.server.ws.load;

import io.sluice.server.load.ProcessReadings;

import java.util.List;

/**
 * Where a lane's CPU went during its load: the server JVM's user and system CPU seconds and its
 * write-family system calls ({@code /proc/PID/stat}, {@code /proc/PID/io}), and the CPU seconds of
 * the harness JVM, in which the clients run ({@code /proc/self/stat}). Taken as the difference of
 * two {@link Snapshot}s around the same window as {@link LaneResult#serverCpuSeconds()}.
 *
 * @param serverUserSeconds the server's user CPU seconds, NaN if not recorded
 * @param serverSystemSeconds the server's system CPU seconds, NaN if not recorded
 * @param serverWriteSyscalls the server's write-family system calls ({@code syscw}), -1 if not recorded
 * @param clientCpuSeconds the harness JVM's user + system CPU seconds, NaN if not recorded
 */
record ProcessCost(
        double serverUserSeconds, double serverSystemSeconds, long serverWriteSyscalls, double clientCpuSeconds) {

    /** A row written before these columns existed. */
    static final ProcessCost NOT_RECORDED = new ProcessCost(Double.NaN, Double.NaN, -1, Double.NaN);
    /** The columns, appended at the end of a {@code websocket.csv} row. */
    static final String CSV_HEADER = "server_user_s,server_system_s,server_write_syscalls,client_cpu_s";

    /** The counters at one instant; {@code serverWriteSyscalls}: -1 if unreadable. */
    record Snapshot(ProcessReadings.CpuTimes server, long serverWriteSyscalls, ProcessReadings.CpuTimes client) {

        static Snapshot take(long serverPid) {
            return new Snapshot(
                    ProcessReadings.cpuTimes(serverPid),
                    ProcessReadings.writeSyscalls(serverPid),
                    ProcessReadings.cpuTimes(ProcessHandle.current().pid()));
        }

        /** What was spent from {@code before} to this snapshot. */
        ProcessCost since(Snapshot before) {
            return new ProcessCost(
                    server.userSeconds() - before.server.userSeconds(),
                    server.systemSeconds() - before.server.systemSeconds(),
                    serverWriteSyscalls < 0 || before.serverWriteSyscalls < 0
                            ? -1
                            : serverWriteSyscalls - before.serverWriteSyscalls,
                    client.userSeconds()
                            + client.systemSeconds()
                            - before.client.userSeconds()
                            - before.client.systemSeconds());
        }
    }

    boolean recorded() {
        return !Double.isNaN(serverUserSeconds)
                || !Double.isNaN(serverSystemSeconds)
                || serverWriteSyscalls >= 0
                || !Double.isNaN(clientCpuSeconds);
    }

    String csvFields() {
        return String.join(
                ",",
                LaneResult.fmt(serverUserSeconds),
                LaneResult.fmt(serverSystemSeconds),
                Long.toString(serverWriteSyscalls),
                LaneResult.fmt(clientCpuSeconds));
    }

    /** The {@link #CSV_HEADER} fields from {@code first} on. */
    static ProcessCost parse(List<String> fields, int first) {
        return new ProcessCost(
                Double.parseDouble(fields.get(first)),
                Double.parseDouble(fields.get(first + 1)),
                Long.parseLong(fields.get(first + 2)),
                Double.parseDouble(fields.get(first + 3)));
    }
}
