package io.sluice.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A wrong output is reported as FAILED, not fast; the order of providers rotates. */
class CellRunnerTest {

    @TempDir
    Path dir;

    /** Writes the payload, but with one byte changed, or one chunk short. */
    private static final class BrokenWriter implements Provider {
        private final boolean shortByOneChunk;

        BrokenWriter(boolean shortByOneChunk) {
            this.shortByOneChunk = shortByOneChunk;
        }

        @Override
        public String name() {
            return shortByOneChunk ? "short" : "corrupt";
        }

        @Override
        public boolean supports(Op op) {
            return op == Op.WRITE;
        }

        @Override
        public CompletableFuture<?> write(Path target, long chunks, boolean sync) {
            try {
                Payload.createFile(target, (shortByOneChunk ? chunks - 1 : chunks) * Payload.CHUNK_BYTES);
                if (!shortByOneChunk) {
                    byte[] bytes = Files.readAllBytes(target);
                    bytes[bytes.length / 2] ^= 1;
                    Files.write(target, bytes);
                }
                return CompletableFuture.completedFuture(null);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** Delivers one chunk twice. */
    private static final class DuplicatingReader implements Provider {
        @Override
        public String name() {
            return "duplicating";
        }

        @Override
        public boolean supports(Op op) {
            return op == Op.READ;
        }

        @Override
        public CompletableFuture<?> read(Path source, long sizeBytes) {
            ReadCheck check = new ReadCheck(sizeBytes);
            check.accept(Payload.freshChunk(0));
            for (long chunk = 0; chunk < Payload.chunks(sizeBytes) - 1; chunk++) {
                check.accept(Payload.freshChunk(chunk));
            }
            return CompletableFuture.supplyAsync(check::finish);
        }
    }

    /** Records the order it was called in. */
    private static final class Recording implements Provider {
        private final String name;
        private final List<String> calls;

        Recording(String name, List<String> calls) {
            this.name = name;
            this.calls = calls;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public boolean supports(Op op) {
            return true;
        }

        @Override
        public CompletableFuture<?> write(Path target, long chunks, boolean sync) {
            calls.add(name);
            try {
                Payload.createFile(target, chunks * Payload.CHUNK_BYTES);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return CompletableFuture.completedFuture(null);
        }
    }

    @Test
    void wrongContentShortFilesAndDuplicatedChunksFailTheProvider() throws Exception {
        List<Sample> samples = new ArrayList<>();
        try (Probe probe = new Probe()) {
            CellRunner runner = new CellRunner(dir, Sample.Origin.UNKNOWN, probe, 0, line -> {});
            samples.addAll(runner.run(
                    Cell.parse("WRITE:8K:2"), List.of(new BrokenWriter(false), new BrokenWriter(true)), 0, 3, 0));
            samples.addAll(runner.run(Cell.parse("READ:8K:1"), List.of(new DuplicatingReader()), 0, 3, 0));
            runner.deleteSources();
        }
        assertEquals(3, samples.size(), "a failed provider is not run again in the cell: " + samples);
        for (Sample sample : samples) {
            assertTrue(sample.status().startsWith("FAILED: "), sample.toCsv());
        }
        assertTrue(samples.get(0).status().contains("wrong content")
                || samples.get(1).status().contains("wrong content"));
        assertTrue(samples.stream().anyMatch(sample -> sample.status().contains("has 7168 bytes, expected 8192")));
        assertTrue(samples.stream()
                .anyMatch(sample -> sample.status().contains("wrong bytes in the chunk at offset 1024")));
        Report report = new Report(samples);
        assertTrue(report.compact().contains("reported as failed, not fast"), report.compact());
    }

    @Test
    void theProviderOrderRotatesEveryRound() throws Exception {
        List<String> calls = new ArrayList<>();
        List<Provider> providers =
                List.of(new Recording("a", calls), new Recording("b", calls), new Recording("c", calls));
        try (Probe probe = new Probe()) {
            new CellRunner(dir, Sample.Origin.UNKNOWN, probe, 0, line -> {})
                    .run(Cell.parse("WRITE:1K:1"), providers, 1, 2, 0);
        }
        assertEquals(List.of("a", "b", "c", "b", "c", "a", "c", "a", "b"), calls);
    }

    @Test
    void aSampleRepeatsInvocationsUntilItHasLastedTheMinimumTime() throws Exception {
        List<String> calls = new ArrayList<>();
        List<Sample> samples = new ArrayList<>();
        try (Probe probe = new Probe()) {
            samples.addAll(new CellRunner(dir, Sample.Origin.UNKNOWN, probe, 50, line -> {})
                    .run(Cell.parse("WRITE:1K:1"), List.of(new Recording("a", calls)), 0, 1, 0));
        }
        assertTrue(calls.size() > 1, "a 1 KiB write takes far less than 50 ms; it must be repeated");
        // The sample stores the mean per invocation, timed / invocations rounded down, so the mean
        // times the count can fall short of the timed total by up to invocations - 1 ns; one more
        // nanosecond per invocation must exceed it.
        assertTrue(
                (samples.get(0).nanos() + 1) * calls.size() > 50_000_000L,
                samples.get(0).toCsv());
    }

    @Test
    void payloadVerificationAcceptsOnlyTheExactFile() throws Exception {
        Path file = dir.resolve("p");
        Payload.createFile(file, 300 * 1024);
        assertEquals(null, Payload.verify(file, 300 * 1024));
        ByteBuffer chunk = Payload.freshChunk(251);
        assertEquals(Payload.freshChunk(0), chunk, "the pattern repeats every 251 chunks");
        assertEquals(Payload.byteAt(251 * 1024 + 5), chunk.get(5));
        assertEquals("p has 307200 bytes, expected 306176", Payload.verify(file, 299 * 1024));
    }
}
