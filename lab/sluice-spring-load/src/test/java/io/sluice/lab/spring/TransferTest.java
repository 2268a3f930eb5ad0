package io.sluice.lab.spring;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TransferTest {

    @Test
    void noLabelsMeansEveryTransfer() {
        assertEquals(List.of(Transfer.values()), Transfer.named(""));
    }

    @Test
    void labelsPickTransfersInTheTablesOrder() {
        assertEquals(
                List.of(Transfer.SPRING_DOWNLOAD, Transfer.SLUICE_DOWNLOAD),
                Transfer.named("sluice-download,spring-download"));
    }

    @Test
    void bothOfSluicesDownloadsAreComparedWithSpringsResource() {
        assertEquals(List.of(Transfer.SLUICE_DOWNLOAD, Transfer.SLUICE_ZERO_COPY), Transfer.sluices(false));
        assertEquals(
                List.of("spring-download", "spring-download"),
                Transfer.sluices(false).stream().map(Transfer::baseline).toList());
        assertEquals(
                List.of("sluice/pooled", "sluice"),
                Transfer.sluices(false).stream()
                        .map(transfer -> transfer.prefix)
                        .toList());
    }

    @Test
    void anUnknownLabelIsRefusedWithTheKnownOnes() {
        IllegalArgumentException refused =
                assertThrows(IllegalArgumentException.class, () -> Transfer.named("sluice-dowload"));

        assertTrue(
                refused.getMessage().startsWith("no transfer sluice-dowload; known: [spring-multipart,"),
                refused.getMessage());
    }

    @Test
    void plainUploadsAreComparedWithSpringsOwnKindAndOnlyTheAtomicOnesForce() {
        assertEquals(
                List.of("spring-multipart", "spring-raw"),
                Stream.of(Transfer.SLUICE_PLAIN_MULTIPART, Transfer.SLUICE_PLAIN_RAW)
                        .map(Transfer::baseline)
                        .toList());
        assertEquals(
                List.of(false, false, true),
                Stream.of(Transfer.SLUICE_PLAIN_MULTIPART, Transfer.SLUICE_PLAIN_RAW, Transfer.SLUICE_STREAM)
                        .map(Transfer::paired)
                        .toList());
        assertEquals(
                List.of(Transfer.SLUICE_MULTIPART, Transfer.SLUICE_STREAM, Transfer.SLUICE_RAW),
                Transfer.sluices(true).stream()
                        .filter(transfer -> transfer.atomic)
                        .toList());
        assertEquals("sluice/plain", Transfer.SLUICE_PLAIN_RAW.prefix);
    }
}
