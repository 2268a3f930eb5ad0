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
    void anUnknownLabelIsRefusedWithTheKnownOnes() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Transfer.named("sluice-dowload"));

        assertTrue(refused.getMessage().startsWith("no transfer sluice-dowload; known: [spring-multipart,"), refused.getMessage());
    }
}
