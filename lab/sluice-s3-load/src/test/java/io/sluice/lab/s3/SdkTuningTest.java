package io.sluice.lab.s3;

import io.sluice.lab.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The SDK's tuned transfers run on the tuning the harness names, and only they: against S3Proxy,
 * a 20 MiB file goes up in three parts by the SDK's defaults (8 MiB) and in four by a tuning of
 * 5 MiB parts, as the stored object's multipart ETag ({@code MD5-PARTS}) counts them.
 */
class SdkTuningTest {

    @TempDir
    Path dir;

    @Test
    void theHarnessChecksTheTuningAndPassesItToEveryClient() {
        Map<String, String> options = S3LoadHarness.options(new String[] {"--results", "out"});
        assertEquals(SdkTuning.SDK_DEFAULTS, SdkTuning.of(options), "by default the tuned transfers are the SDK's own");
        assertEquals(new SdkTuning(16L << 20, 200), SdkTuning.of(S3LoadHarness.options(new String[] {
            "--results", "out", "--sdk-part-size", "16MiB", "--sdk-connections", "200"
        })));
        assertEquals(
                List.of("--sdk-part-size", "16777216", "--sdk-connections", "200"),
                new SdkTuning(16L << 20, 200).args());

        String small = assertThrows(
                        IllegalArgumentException.class,
                        () -> S3LoadHarness.options(new String[] {"--results", "out", "--sdk-part-size", "4MiB"}))
                .getMessage();
        assertTrue(small.contains("S3 needs at least 5242880"), small);
        String none = assertThrows(
                        IllegalArgumentException.class,
                        () -> S3LoadHarness.options(new String[] {"--results", "out", "--sdk-connections", "0"}))
                .getMessage();
        assertTrue(none.contains("at most 0 SDK connections"), none);
    }

    @Test
    void onlyTheTunedTransfersAreTuned() {
        for (Transfer transfer : Transfer.values()) {
            assertEquals(transfer.label.endsWith("-tuned"), transfer.tuned(), transfer.label);
            if (transfer.tuned()) {
                assertTrue(transfer.multipartClient() && transfer.side == Transfer.Side.SDK, transfer.label);
            }
        }
    }

    @Test
    void aTunedUploadGoesInTheTunedPartsAndTheDefaultOneInTheSdksOwn() throws Exception {
        Path store = Files.createDirectories(dir.resolve("store"));
        Path file = dir.resolve("twenty");
        byte[] bytes = new byte[20 << 20];
        new Random(7).nextBytes(bytes);
        Files.write(file, bytes);
        SdkTuning fiveMiB = new SdkTuning(5L << 20, 4);
        try (ChildJvm server = ChildJvm.main("S3Proxy", S3ProxyMain.class.getName())
                .maxHeap("256m")
                .args(List.of(store.toString()))
                .start()) {
            server.awaitReady();
            S3Endpoint endpoint = new S3Endpoint(URI.create("http://127.0.0.1:" + server.port()), "tuning");
            try (S3AsyncClient admin = endpoint.plainClient()) {
                admin.createBucket(request -> request.bucket("tuning")).join();
            }
            for (Transfer transfer : List.of(
                    Transfer.SDK_MULTIPART_FROM_FILE,
                    Transfer.SDK_MULTIPART_FROM_FILE_TUNED,
                    Transfer.TM_UPLOAD_FILE_TUNED)) {
                try (TransferRun run = new TransferRun(transfer, endpoint, fiveMiB)) {
                    String eTag = run.start(new TransferRun.Job(transfer.label, file, bytes.length))
                            .join()
                            .replace("\"", "");
                    assertTrue(
                            eTag.endsWith(transfer.tuned() ? "-4" : "-3"),
                            transfer.label + ": " + eTag + " (8 MiB parts make 3, 5 MiB parts 4)");
                }
            }
        }
    }
}
