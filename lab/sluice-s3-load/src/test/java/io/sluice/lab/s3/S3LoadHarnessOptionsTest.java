package io.sluice.lab.s3;

import io.sluice.lab.Load;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class S3LoadHarnessOptionsTest {

    @Test
    void optionsOverrideTheDefaultsAndTheRestStay() {
        Map<String, String> options = S3LoadHarness.options(
                new String[] {"--results", "out", "--sizes", "1MiB,1GiB", "--transfers", "sluice-upload,raw-get"});

        assertEquals(List.of(1L << 20, 1L << 30), S3LoadHarness.sizes(options));
        assertEquals(List.of(1, 10), S3LoadHarness.clientCounts(options));
        assertEquals("5", options.get("samples"));
        assertEquals("-Xmx1g", options.get("client-jvm"));
        assertEquals(List.of(Transfer.SLUICE_UPLOAD, Transfer.RAW_GET), Transfer.named(options.get("transfers")));
    }

    @Test
    void noTransfersNamedMeansEveryOneButTheTunedOnesOnTheSdksDefaults() {
        List<Transfer> all = List.of(Transfer.values());
        assertEquals(
                all.stream().filter(transfer -> !transfer.tuned()).toList(),
                S3LoadHarness.transfers(S3LoadHarness.options(new String[] {"--results", "out"})),
                "on the SDK's defaults a tuned transfer would repeat its default one");
        assertEquals(all, S3LoadHarness.transfers(S3LoadHarness.options(new String[] {
            "--results", "out", "--sdk-part-size", "16MiB"
        })));
        String refused = assertThrows(
                        IllegalArgumentException.class,
                        () -> S3LoadHarness.options(
                                new String[] {"--results", "out", "--transfers", "sdk-multipart-fromFile-tuned"}))
                .getMessage();
        assertTrue(refused.contains("repeats its default one"), refused);
    }

    @Test
    void malformedOptionsAreRefusedWithWhatIsWrong() {
        assertTrue(assertThrows(
                        IllegalArgumentException.class, () -> S3LoadHarness.options(new String[] {"--sizes", "1MiB"}))
                .getMessage()
                .contains("--results"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> S3LoadHarness.options(
                                new String[] {"--results", "out", "--transfers", "sluice-upload,s3-sync"}))
                .getMessage()
                .contains("s3-sync"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> S3LoadHarness.options(new String[] {"--results"}))
                .getMessage()
                .contains("pairs"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class, () -> S3LoadHarness.options(new String[] {"results", "out"}))
                .getMessage()
                .contains("--option value"));
        assertThrows(
                NumberFormatException.class,
                () -> S3LoadHarness.options(new String[] {"--results", "out", "--sizes", "1MB"}));
        assertThrows(
                IllegalArgumentException.class,
                () -> S3LoadHarness.options(new String[] {"--results", "out", "--samples", "-1"}));
    }

    @Test
    void eachDirectionsGateJudgesOneSluiceTransfer() {
        assertEquals(Transfer.SLUICE_UPLOAD, Transfer.judged(Transfer.Direction.UPLOAD));
        assertEquals(Transfer.SLUICE_DOWNLOAD_PLAIN, Transfer.judged(Transfer.Direction.DOWNLOAD));
        assertEquals(Transfer.SLUICE_STREAM, Transfer.judged(Transfer.Direction.STREAM));
    }

    @Test
    void aSampleRowReadsBackWithItsRoundsWhichCountInItsGiB(@TempDir Path dir) throws IOException {
        S3Sample sample = new S3Sample(
                "abc1234",
                "17",
                "sluice-upload",
                1L << 20,
                10,
                0,
                S3Sample.OK,
                2.0,
                128.0,
                1.0,
                0.5,
                100,
                90,
                10,
                20,
                20,
                0,
                -1,
                new Load(0.5, 0.6, 0.05),
                26);
        Path csv = Files.writeString(dir.resolve("samples.csv"), S3Sample.HEADER + "\n" + sample.row() + "\n");

        assertEquals(List.of(sample), S3Sample.read(csv));
        assertEquals(26 * 10 / 1024.0, sample.gib(), 1e-9, "every client's object, every round");
        assertEquals(1.0 / (26 * 10 / 1024.0), sample.clientCpuSecondsPerGiB(), 1e-9);
    }

    @Test
    void aFailuresReasonIsShownUpToItsFirstFullStop() {
        assertEquals(
                "SdkClientException: Unable to execute HTTP request: Acquire operation took longer than allowed.",
                S3Tables.firstSentence("SdkClientException: Unable to execute HTTP request: Acquire operation took "
                        + "longer than allowed. This indicates that a request cannot get a connection. Consider..."));
        assertEquals("OutOfMemoryError", S3Tables.firstSentence("OutOfMemoryError"));
    }

    @Test
    void aClientsResultLineReadsBackAsItWasWritten() {
        ClientResult result = new ClientResult(1.5, 0.75, 100, -1, 10, 20, 15, 5, 26214400, 90);

        assertEquals(result, ClientResult.parse(result.line()));
        assertThrows(IllegalArgumentException.class, () -> ClientResult.parse("RESULT seconds=1.0"));
        assertThrows(IllegalArgumentException.class, () -> ClientResult.parse("FAILED java.lang.OutOfMemoryError"));
    }
}
