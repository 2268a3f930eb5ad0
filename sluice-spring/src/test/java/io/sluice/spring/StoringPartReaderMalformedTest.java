package io.sluice.spring;

import io.sluice.WriteOptions;
import io.sluice.spring.MultipartForms.Body;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.core.ResolvableType;
import org.springframework.core.codec.DecodingException;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.codec.multipart.Part;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A form that is malformed or past a limit, read through {@link StoringPartReader}: the read fails
 * with Spring's exception for it, every body buffer is released once, and no stored file is left,
 * however far the file parts before the failure were written.
 */
class StoringPartReaderMalformedTest {

    private static final String BOUNDARY = "reader-boundary";
    private static final DataBufferFactory POOLED = SpringBufferFactories.named("Netty 4 pooled direct");
    private static final String FILE =
            "--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"f\"; filename=\"f.bin\"\r\n\r\n";
    private static final String CONTENT = "stored content ".repeat(2000);

    @TempDir
    Path storage;

    static Stream<Arguments> forms() {
        return Stream.of(
                form("no close delimiter after a file", FILE + CONTENT, -1, DecodingException.class),
                form(
                        "a whole file, then truncated headers",
                        FILE + CONTENT + "\r\n--" + BOUNDARY + "\r\nContent-Dis",
                        -1,
                        DecodingException.class),
                form(
                        "a whole file, then headers over the limit",
                        FILE + CONTENT + "\r\n--" + BOUNDARY + "\r\nX: " + "x".repeat(11 * 1024),
                        -1,
                        DataBufferLimitException.class),
                form(
                        "a file one byte over the part limit",
                        FILE + CONTENT + "\r\n--" + BOUNDARY + "--",
                        CONTENT.length() - 1,
                        DataBufferLimitException.class),
                form(
                        "a whole file, then one over the part limit",
                        FILE + "small\r\n--" + BOUNDARY
                                + "\r\nContent-Disposition: form-data; name=\"g\"; filename=\"g.bin\"\r\n\r\n" + CONTENT
                                + "\r\n--"
                                + BOUNDARY + "--",
                        CONTENT.length() - 1,
                        DataBufferLimitException.class),
                form("an empty body", "", -1, DecodingException.class));
    }

    private static Arguments form(String name, String body, long maxPartSize, Class<? extends Throwable> expected) {
        return Arguments.of(Named.of(name, body), maxPartSize, expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("forms")
    void theReadFailsWithSpringsExceptionReleasesTheBodyAndLeavesNoStoredFile(
            String text, long maxPartSize, Class<? extends Throwable> expected) throws Exception {
        byte[] bytes = MultipartForms.ascii(text);
        StoringPartReader reader = new StoringPartReader(storage, WriteOptions.defaults());
        reader.setMaxPartSize(maxPartSize);
        int[] ends = IntStream.iterate(1000, end -> end < bytes.length + 1000, end -> end + 1000)
                .map(end -> Math.min(end, bytes.length))
                .toArray();
        TrackedBuffers buffers = MultipartForms.cut(POOLED, bytes, bytes.length == 0 ? new int[0] : ends);

        assertThrows(
                expected,
                () -> reader.read(
                                ResolvableType.forClass(Part.class),
                                new Body(BOUNDARY, bytes).request(buffers.flux()),
                                Map.of())
                        .collectList()
                        .block(MultipartForms.WAIT));

        buffers.awaitAllReleased();
        assertEquals(List.of(), buffers.problems());
        assertEquals(
                Collections.nCopies(buffers.createdCount(), 1),
                buffers.releaseCounts(),
                "each body buffer released once");
        SpringBufferFactories.assertNoLiveAllocations(POOLED);
        assertEquals(List.of(), storedFilesWithin(5), "no stored file is left");
    }

    /** The files in the storage directory once none is left, or after {@code seconds}: deletes run on the file executor. */
    private List<Path> storedFilesWithin(int seconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<Path> files = list();
        while (!files.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
            files = list();
        }
        return files;
    }

    private List<Path> list() throws IOException {
        try (Stream<Path> files = Files.list(storage)) {
            return files.toList();
        }
    }
}
