package io.sluice.server;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line: defaults, every flag, and the refusals {@code main} turns into exit status 2. */
class MainTest {

    @Test
    void defaultsAreLaneCOnLoopbackPort8080() {
        assertEquals(
                new ServerConfig(
                        Lane.C,
                        "127.0.0.1",
                        8080,
                        Path.of("data"),
                        ServerConfig.DEFAULT_MAX_UPLOAD_BYTES,
                        ServerConfig.DEFAULT_PLATFORM_THREADS,
                        UploadEvents.NONE,
                        ServerConfig.DEFAULT_DOWNLOAD_CHUNKS,
                        null),
                Main.parse(new String[0]));
    }

    @Test
    void readsEveryFlag() {
        ServerConfig config = Main.parse(new String[] {
            "--lane",
            "c-unbounded",
            "--port",
            "0",
            "--host",
            "0.0.0.0",
            "--dir",
            "/tmp/x",
            "--max-upload-bytes",
            "1024",
            "--threads",
            "16"
        });
        assertEquals(
                new ServerConfig(
                        Lane.C_UNBOUNDED,
                        "0.0.0.0",
                        0,
                        Path.of("/tmp/x"),
                        1024,
                        16,
                        UploadEvents.NONE,
                        ServerConfig.DEFAULT_DOWNLOAD_CHUNKS,
                        null),
                config);
    }

    @Test
    void storageNamesABucketWithItsEndpointAndRegion() {
        ServerConfig config = Main.parse(new String[] {
            "--storage", "s3://files/", "--s3-endpoint", "http://127.0.0.1:9000", "--s3-region", "eu-west-1"
        });

        assertEquals(new S3Bucket("files", URI.create("http://127.0.0.1:9000"), "eu-west-1"), config.bucket());
        assertEquals(
                new S3Bucket("files", null, "us-east-1"),
                Main.parse(new String[] {"--storage", "s3://files"}).bucket());
    }

    @Test
    void refusesAStorageThatIsNoBucketAnEndpointWithoutOneAndABucketOnABlockingLane() {
        assertTrue(message("--storage", "/data").contains("--storage must be s3://BUCKET, was '/data'"));
        assertTrue(message("--storage", "s3://").contains("--storage must be s3://BUCKET"));
        assertTrue(message("--storage", "s3://a/b").contains("a bucket name, without '/', was 'a/b'"));
        assertTrue(
                message("--storage", "s3://a", "--s3-endpoint", "ftp://x").contains("--s3-endpoint must be an http"));
        assertTrue(message("--s3-endpoint", "http://127.0.0.1:9000").contains("--s3-endpoint needs --storage"));
        assertTrue(message("--lane", "A", "--storage", "s3://a").contains("a bucket is served by lane C only"));
    }

    @Test
    void refusesUnknownFlagsMissingValuesAndHelpWithAUsageLine() {
        assertTrue(message("--bogus", "1").contains("unknown flag --bogus"));
        assertTrue(message("--lane", "C", "--port").contains("--port needs a value"));
        assertTrue(message("--help").startsWith("usage: --lane A|B|C|C-unbounded"));
        assertTrue(message("--lane", "Z").contains("unknown lane 'Z'"));
        assertThrows(NumberFormatException.class, () -> Main.parse(new String[] {"--port", "x"}));
    }

    private static String message(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> Main.parse(args))
                .getMessage();
    }
}
