package io.sluice.lab.spring;

import org.junit.jupiter.api.Test;

import java.util.List;

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
        assertEquals(List.of(Transfer.SPRING_DOWNLOAD, Transfer.SLUICE_DOWNLOAD), Transfer.named("sluice-download,spring-download"));
    }

    @Test
    void bothOfSluicesDownloadsAreComparedWithSpringsResource() {
        assertEquals(List.of(Transfer.SLUICE_DOWNLOAD, Transfer.SLUICE_ZERO_COPY), Transfer.sluices(false));
        assertEquals(List.of("spring-download", "spring-download"),
                Transfer.sluices(false).stream().map(Transfer::baseline).toList());
        assertEquals(List.of("sluice/pooled", "sluice"), Transfer.sluices(false).stream().map(transfer -> transfer.prefix).toList());
    }

    @Test
    void anUnknownLabelIsRefusedWithTheKnownOnes() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Transfer.named("sluice-dowload"));

        assertTrue(refused.getMessage().startsWith("no transfer sluice-dowload; known: [spring-multipart,"), refused.getMessage());
    }
}
