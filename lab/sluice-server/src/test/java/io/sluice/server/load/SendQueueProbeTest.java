package io.sluice.server.load;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SendQueueProbeTest {

    // Port 0x1F90 = 8080. Lines as the kernel prints them (columns trimmed after the inode).
    private static final List<String> TCP = List.of(
            "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
            "   0: 0100007F:1F90 00000000:0000 0A 00000000:00000005 00:00000000 00000000  1000        0 101",
            "   1: 0100007F:1F90 0100007F:D431 01 00010000:00000000 01:00000014 00000000  1000        0 102",
            "   2: 0100007F:1F90 0100007F:D432 01 00000400:00000000 01:00000014 00000000  1000        0 103",
            "   3: 0100007F:D431 0100007F:1F90 01 00000800:00000000 00:00000000 00000000  1000        0 104",
            "   4: 0100007F:0050 0100007F:D433 01 00001000:00000000 00:00000000 00000000  1000        0 105");
    private static final List<String> TCP6 = List.of(
            "  sl  local_address                         remote_address                        st tx_queue rx_queue",
            "   0: 0000000000000000FFFF00000100007F:1F90 0000000000000000FFFF00000100007F:D440 01 00000100:00000000");

    @Test
    void sumsTheSendQueuesOfTheServersEstablishedSocketsOnly() {
        // 0x10000 + 0x400: not the listener, not the client's end (remote port 8080), not port 80
        assertEquals(0x10000 + 0x400, SendQueueProbe.sumTxQueue(TCP, 8080, new HashSet<>()));
    }

    @Test
    void readsTcp6AddressesOfADualStackSocket() {
        assertEquals(0x100, SendQueueProbe.sumTxQueue(TCP6, 8080, new HashSet<>()));
    }

    @Test
    void countsAConnectionListedTwiceOnce() {
        // the kernel's table is not a snapshot: under churn a socket can appear twice
        List<String> twice = new java.util.ArrayList<>(TCP);
        twice.add(TCP.get(2)); // the socket with 0x10000 queued
        assertEquals(0x10000 + 0x400, SendQueueProbe.sumTxQueue(twice, 8080, new HashSet<>()));
    }

    @Test
    void countsNothingForAPortWithoutSockets() {
        assertEquals(0, SendQueueProbe.sumTxQueue(TCP, 9090, new HashSet<>()));
    }
}
