package io.sluice.reliability;

import io.sluice.ReactiveFile;
import io.sluice.WriteOptions;
import io.sluice.testkit.OpenFiles;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * W11: an upstream that fails after sending some items gets exactly those items written, then the
 * stage fails with its error; whatever the timing (synchronous, on another scheduler, the error
 * right behind the items), the file holds the same bytes every time: none, an empty file, for an
 * error before any item, as Spring's write does. An atomic write keeps the old content instead.
 */
class UpstreamErrorTest {

    private static final int RUNS = 200;

    @TempDir
    Path directory;

    private List<String> baselineFds;

    @BeforeEach
    void baseline() {
        baselineFds = OpenFiles.targets();
    }

    @Test
    void whatCameBeforeTheErrorIsWrittenThenTheWriteFailsWithIt() throws Exception {
        Path target = directory.resolve("target");
        for (int run = 0; run < RUNS; run++) {
            IOException error = new IOException("upload aborted, run " + run);
            Flux<ByteBuffer> body = Flux.just("foo", "bar")
                    .map(text -> ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII)))
                    .concatWith(Flux.error(error));
            if (run % 2 == 1) {
                body = body.publishOn(Schedulers.parallel());
            }
            Throwable failure = Stages.failure(ReactiveFile.of(target).write(body));
            assertSame(error, failure, "run " + run);
            assertEquals("foobar", Files.readString(target, StandardCharsets.US_ASCII), "run " + run);
        }
        OpenFiles.awaitClosed(directory, baselineFds);
    }

    @Test
    void anAtomicWriteWhoseUpstreamFailsKeepsTheOldContentAndNoTemporary() throws Exception {
        Path target = Files.writeString(directory.resolve("target"), "old");
        Flux<ByteBuffer> body = Flux.just(ByteBuffer.wrap(new byte[] {1, 2, 3}))
                .concatWith(Flux.error(new IOException("upload aborted")));
        Throwable failure = Stages.failure(
                ReactiveFile.of(target).write(body, WriteOptions.defaults().withAtomicReplace()));
        assertEquals("upload aborted", failure.getMessage());
        assertEquals("old", Files.readString(target));
        assertEquals(List.of(), Stages.temporaries(directory));
        OpenFiles.awaitClosed(directory, baselineFds);
    }

    @Test
    void anErrorBeforeAnyItemLeavesTheFileEmptyEveryTime() throws Exception {
        Path existing = directory.resolve("existing");
        Path absent = directory.resolve("absent");
        for (int run = 0; run < RUNS; run++) {
            Files.writeString(existing, "old");
            Files.deleteIfExists(absent);
            for (Path target : List.of(existing, absent)) {
                Throwable failure =
                        Stages.failure(ReactiveFile.of(target).write(Flux.error(new IOException("no body"))));
                assertEquals("no body", failure.getMessage());
                assertEquals(0, Files.size(target), "run " + run + ": " + target.getFileName());
            }
        }
        OpenFiles.awaitClosed(directory, baselineFds);
    }
}
