package io.sluice.lab.s3;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The harness end to end at a tiny scale: S3Proxy in its own JVM, a client JVM per sample, one
 * upload, one download and one reactive-source upload of 1 MiB. Every client checked that its
 * transfer moved every byte (or the run would have failed); here the rows say so.
 */
@DisabledIfSystemProperty(named = "sluice.smoke.skip", matches = "true")
class S3LoadSmokeTest {

    @TempDir
    Path results;

    @Test
    void aTinyRunRecordsOneSuccessfulRowPerTransferAndLeavesNoData() throws Exception {
        S3LoadHarness.run(new String[] {
            "--results",
            results.toString(),
            "--sizes",
            "1MiB",
            "--clients",
            "1",
            "--samples",
            "1",
            "--warmup",
            "0",
            "--memory-samples",
            "1",
            "--sample-bytes",
            "3MiB",
            "--transfers",
            "sluice-upload,sluice-upload-unchecked,sdk-toFile,sluice-stream",
            "--client-jvm",
            "-Xmx128m",
            "--server-heap",
            "256m"
        });

        S3Run run = S3Run.read(results);
        assertEquals(
                "parts of 8 MiB, 50 at once (connections, and parts in flight per upload)",
                run.sdkTuning(),
                "run.txt records the tuning, the SDK's defaults here");
        assertEquals(
                List.of("sluice-upload", "sluice-upload-unchecked", "sdk-toFile", "sluice-stream"),
                run.samples().stream().map(S3Sample::transfer).toList());
        for (S3Sample sample : run.samples()) {
            assertTrue(sample.ok(), sample.toString());
            assertEquals(1L << 20, sample.sizeBytes());
            assertTrue(
                    sample.seconds() > 0 && sample.mibPerSecond() > 0 && sample.clientCpuSeconds() >= 0,
                    sample.toString());
            assertTrue(sample.peakHeapBytes() > 0 && sample.idleHeapBytes() > 0, sample.toString());
            assertEquals(3, sample.rounds(), "each client moved its object three times: " + sample);
        }
        S3Sample stream = run.samples().get(3);
        assertEquals(3L * 8 * 1024 * 1024 + BurstyPublisher.ITEM_BYTES, stream.boundBytes());
        S3Sample checked = run.memory().get(0);
        assertEquals(1, run.memory().size(), "one memory sample, of the one stream transfer");
        assertTrue(
                checked.ok()
                        && checked.transfer().equals("sluice-stream")
                        && checked.boundBytes() == stream.boundBytes(),
                checked.toString());
        try (var files = Files.walk(results.resolve("work"))) {
            assertEquals(
                    List.of(),
                    files.filter(Files::isRegularFile)
                            .filter(file -> !file.toString().contains(".s3proxy"))
                            .map(Path::toString)
                            .toList(),
                    "every object and file deleted");
        }
    }
}
