package io.sluice.examples.s3;

import io.sluice.examples.spring.LeakReports;
import io.sluice.s3.S3ProxyServer;
import io.sluice.s3.UploadResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** docs/USING.md's S3 snippet ({@link UsingS3}) quoted line for line, and run against S3Proxy. */
@ExtendWith(LeakReports.class)
class UsingS3Test {

    @TempDir
    Path dir;

    @Test
    void theSnippetStoresTheBodyAndDownloadsItIntoTheFile() throws Exception {
        byte[] content = ObjectsApplicationTest.random(9 * 1024 * 1024 + 11, 42); // two 8 MiB parts
        Flux<ByteBuffer> body = Flux.range(0, content.length / 100_000 + 1)
                .map(index ->
                        ByteBuffer.wrap(content, index * 100_000, Math.min(100_000, content.length - index * 100_000)));
        S3ProxyServer server = S3ProxyServer.start(); // not in a try-with-resources: close() throws Exception
        try (S3AsyncClient client = server.newClient()) {
            client.createBucket(request -> request.bucket("uploads")).join();

            UsingS3.Stages stages = UsingS3.run(client, body, dir);

            UploadResult stored = stages.stored().toCompletableFuture().get(60, TimeUnit.SECONDS);
            assertEquals(content.length, stored.bytes());
            assertEquals(2, stored.parts());
            assertEquals(
                    content.length, stages.downloaded().toCompletableFuture().get(60, TimeUnit.SECONDS));
            assertArrayEquals(content, Files.readAllBytes(dir.resolve("photo.jpg")));
            assertEquals(0, S3ProxyServer.openUploads(client, "uploads"));
        } finally {
            server.close();
        }
    }

    @Test
    void usingShowsTheCompiledSnippetLineForLine() throws Exception {
        List<String> lines = Files.readAllLines(Path.of("src/main/java/io/sluice/examples/s3/UsingS3.java"));
        List<String> snippet = lines.subList(indexOf(lines, "// USING begin") + 1, indexOf(lines, "// USING end"));
        String expected = snippet.stream().map(line -> line.substring(8)).collect(Collectors.joining("\n"));

        String page = Files.readString(Path.of("../docs/USING.md"));

        assertTrue(
                page.contains("```java\n" + expected + "\n```"),
                "docs/USING.md's S3 section must quote UsingS3.java's snippet as it is:\n" + expected);
    }

    private static int indexOf(List<String> lines, String marker) {
        for (int index = 0; index < lines.size(); index++) {
            if (lines.get(index).strip().equals(marker)) {
                return index;
            }
        }
        throw new AssertionError("UsingS3.java has no line " + marker);
    }
}
