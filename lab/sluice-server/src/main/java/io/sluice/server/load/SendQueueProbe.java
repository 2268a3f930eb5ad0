package io.sluice.server.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Bytes the kernel holds in the send queues of the server's sockets: the sum of {@code tx_queue} (written, not
 * yet acknowledged) over every non-listening TCP socket on its port in {@code /proc/net/tcp} and {@code tcp6}
 * (a dual-stack socket on 127.0.0.1 shows up there). Linux only: elsewhere {@link #available()} is false.
 */
public record SendQueueProbe(int port) {

    private static final List<Path> TABLES = List.of(Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6"));
    private static final String LISTEN = "0A";

    public static boolean available() {
        return Files.isReadable(TABLES.get(0));
    }

    /** Current total send-queue bytes of the server's sockets, or -1 when the tables cannot be read. */
    public long sendQueueBytes() {
        long total = 0;
        boolean readAny = false;
        Set<String> seen = new HashSet<>();
        for (Path table : TABLES) {
            try {
                total += sumTxQueue(Files.readAllLines(table), port, seen);
                readAny = true;
            } catch (IOException e) {
                // tcp6 is absent when IPv6 is disabled: the other table still counts
            }
        }
        return readAny ? total : -1;
    }

    /**
     * Sums {@code tx_queue} of the non-listening sockets on {@code localPort} in one table's lines, each
     * connection once across calls sharing {@code seen}: the tables are not a snapshot, a socket can show twice.
     */
    static long sumTxQueue(List<String> lines, int localPort, Set<String> seen) {
        long total = 0;
        for (String line : lines) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length < 5 || !fields[0].endsWith(":") || fields[3].equals(LISTEN)) {
                continue;
            }
            String local = fields[1];
            int colon = local.lastIndexOf(':');
            int queues = fields[4].indexOf(':');
            if (colon < 0 || queues < 0) {
                continue;
            }
            try {
                if (Integer.parseInt(local.substring(colon + 1), 16) == localPort
                        && seen.add(local + ' ' + fields[2])) {
                    total += Long.parseLong(fields[4].substring(0, queues), 16);
                }
            } catch (NumberFormatException e) {
                // not a socket line
            }
        }
        return total;
    }
}
