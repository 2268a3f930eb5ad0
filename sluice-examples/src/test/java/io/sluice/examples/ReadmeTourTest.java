package io.sluice.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReadmeTourTest {

    @TempDir
    Path dir;

    @Test
    void theReadmeExampleRunsAndDoesWhatItsCommentsSay() throws Exception {
        byte[] content = new byte[1_000_003];
        new Random(7).nextBytes(content);
        Files.write(dir.resolve("in.bin"), content);
        Files.writeString(dir.resolve("config.json"), "{\"old\":true}");
        byte[] config = "{\"new\":true}".getBytes(StandardCharsets.UTF_8);

        ReadmeTour.Stages stages = ReadmeTour.run(dir, Flux.just(ByteBuffer.wrap(config)));

        assertEquals(content.length, stages.size().block(Duration.ofSeconds(30)));
        assertEquals(content.length, stages.copied().toCompletableFuture().get(30, TimeUnit.SECONDS));
        assertArrayEquals(content, Files.readAllBytes(dir.resolve("copy.bin")));
        assertEquals(config.length, stages.safe().toCompletableFuture().get(30, TimeUnit.SECONDS));
        assertArrayEquals(config, Files.readAllBytes(dir.resolve("config.json")));
        CompletableFuture<Long> written = stages.written().toCompletableFuture();
        try {
            // cancelled at once, unless (in theory) the whole write had already reached its commit
            assertEquals(content.length, written.get(30, TimeUnit.SECONDS));
            assertArrayEquals(content, Files.readAllBytes(dir.resolve("out.bin")));
        } catch (CancellationException expected) {
            assertTrue(written.isCancelled());
        }
    }

    @Test
    void theReadmeShowsTheCompiledExampleLineForLine() throws Exception {
        Path source = Path.of("src/main/java/io/sluice/examples/ReadmeTour.java");
        List<String> lines = Files.readAllLines(source);
        List<String> example = lines.subList(indexOf(lines, "// README begin") + 1, indexOf(lines, "// README end"));
        String readme = Files.readString(Path.of("../README.md"));
        String expected = example.stream().map(line -> line.substring(8)).collect(Collectors.joining("\n"));
        assertTrue(
                readme.contains("```java\n" + expected + "\n```"),
                "README.md must show ReadmeTour's example exactly:\n" + expected);
    }

    private static int indexOf(List<String> lines, String marker) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).trim().equals(marker)) {
                return i;
            }
        }
        throw new AssertionError(marker + " not found");
    }
}
