package io.sluice.server.ws.load;

import java.util.List;
import java.util.Locale;

/**
 * Where a run's CPU per delivered message went, one line per lane (per lane and repeat in a run of
 * several): the server's user and system CPU, all of its CPU (as {@code server_cpu_s}), its
 * write-family system calls and the CPU of the harness JVM, in which the clients run. A figure
 * not recorded prints as "-"; a run recorded before any of them prints one line saying so.
 */
final class CostTable {

    /** What a run without the {@link ProcessCost} columns renders. */
    static final String NOT_RECORDED = "Not recorded: this run's websocket.csv has no server user and system CPU,"
            + " write system call or client CPU columns.\n";

    private CostTable() {
    }

    static String of(List<LaneResult> results) {
        if (results.stream().noneMatch(result -> result.cost().recorded())) {
            return NOT_RECORDED;
        }
        boolean severalRepeats = FanOutGates.repeats(results).size() > 1;
        StringBuilder table = new StringBuilder("| lane | msg/s | server user µs/msg | server system µs/msg "
                + "| server µs/msg | server write syscalls per 1,000 msg | clients' JVM µs/msg |\n"
                + "|---|---:|---:|---:|---:|---:|---:|\n");
        for (LaneResult r : results) {
            ProcessCost cost = r.cost();
            table.append(String.format(Locale.ROOT, "| %s | %,.0f | %s | %s | %s | %s | %s |\n",
                    severalRepeats ? r.lane() + " (repeat " + r.repeat() + ")" : r.lane(), r.messagesPerSecond(),
                    microsPerMessage(cost.serverUserSeconds(), r), microsPerMessage(cost.serverSystemSeconds(), r),
                    microsPerMessage(r.serverCpuSeconds(), r),
                    cost.serverWriteSyscalls() < 0 ? "-" : figure(1000.0 * cost.serverWriteSyscalls() / r.messages()),
                    microsPerMessage(cost.clientCpuSeconds(), r)));
        }
        return table.toString();
    }

    private static String microsPerMessage(double cpuSeconds, LaneResult r) {
        return figure(cpuSeconds * 1e6 / r.messages());
    }

    /** Two decimals; "-" for a figure not recorded or over no messages. */
    private static String figure(double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%.2f", value) : "-";
    }
}
