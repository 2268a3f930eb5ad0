package io.sluice.s3;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.Executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The parts in flight: each kind's default, one setting for both, and a bad value named; the file executor. */
class UploadOptionsTest {

    @Test
    void aStreamsPartsAreHeldInMemorySoFewerAreInFlightThanAFilesByDefault() {
        UploadOptions defaults = UploadOptions.defaults();

        assertEquals(UploadOptions.DEFAULT_PARTS_IN_FLIGHT, defaults.partsInFlight());
        assertEquals(2, defaults.partsInFlight());
        assertEquals(UploadOptions.DEFAULT_FILE_PARTS_IN_FLIGHT, defaults.filePartsInFlight());
        assertEquals(8, defaults.filePartsInFlight());
    }

    @Test
    void settingThePartsInFlightSetsThemForStreamsAndFilesAlike() {
        UploadOptions three = UploadOptions.defaults().withPartsInFlight(3);

        assertEquals(3, three.partsInFlight());
        assertEquals(3, three.filePartsInFlight());
        assertEquals(3, three.withPartSize(16 * 1024 * 1024).filePartsInFlight(), "kept by the other setters");
        assertTrue(three.toString().contains("partsInFlight=3, filePartsInFlight=3"), three::toString);
    }

    @Test
    void fewerThanOnePartInFlightIsRefusedNamingTheValue() {
        IllegalArgumentException refused = assertThrows(
                IllegalArgumentException.class, () -> UploadOptions.defaults().withPartsInFlight(0));

        assertEquals("partsInFlight must be at least 1, was 0", refused.getMessage());
    }

    @Test
    void aFileExecutorIsTheLibrarysPoolUntilSetAndKeptByTheOtherSetters() {
        Executor mine = Runnable::run;

        assertNull(UploadOptions.defaults().fileExecutor(), "null: the library's file pool");
        UploadOptions set = UploadOptions.defaults().withFileExecutor(mine);
        assertSame(mine, set.fileExecutor());
        assertSame(
                mine,
                set.withPartsInFlight(3)
                        .withAnswerTimeout(Duration.ofSeconds(9))
                        .fileExecutor());
        assertThrows(NullPointerException.class, () -> UploadOptions.defaults().withFileExecutor(null));
    }
}
