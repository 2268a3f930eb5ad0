package io.sluice.spring;

import io.sluice.WriteOptions;
import io.sluice.spring.FileParts.StoredPart;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.codec.multipart.FilePartEvent;
import org.springframework.http.codec.multipart.FormPartEvent;
import org.springframework.http.codec.multipart.PartEvent;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Streamed multipart stores: each file part's bytes exact in its own file, every buffer released once. */
class FilePartsStoreTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final WriteOptions ATOMIC = WriteOptions.defaults().withAtomicReplace();
    private static final int CANCEL_ROUNDS = 300;

    @TempDir
    Path dir;

    @Test
    void storesEachFilePartExactlyAcrossBufferBoundariesAndSkipsFormFields() throws Exception {
        byte[] first = random(1_000_003, 1);
        byte[] second = random(70_001, 2);
        TrackedBuffers firstBuffers = new TrackedBuffers(first, 8191, null);
        TrackedBuffers secondBuffers = new TrackedBuffers(second, 1000, null);
        TrackedBuffers fieldBuffers =
                new TrackedBuffers("between the files".getBytes(StandardCharsets.UTF_8), 100, null);
        Flux<PartEvent> parts = Flux.concat(
                file("one", "a.bin", firstBuffers.flux()),
                Flux.just(field("note", fieldBuffers.item(0))),
                file("two", "b.bin", secondBuffers.flux()));

        List<StoredPart> stored = FileParts.store(parts, event -> dir.resolve(event.name()), ATOMIC)
                .collectList()
                .block(WAIT);

        assertEquals(
                List.of(
                        new StoredPart("one", "a.bin", dir.resolve("one"), first.length),
                        new StoredPart("two", "b.bin", dir.resolve("two"), second.length)),
                stored);
        assertArrayEquals(first, Files.readAllBytes(dir.resolve("one")));
        assertArrayEquals(second, Files.readAllBytes(dir.resolve("two")));
        assertFalse(Files.exists(dir.resolve("note")), "a form field is not stored");
        for (TrackedBuffers buffers : List.of(firstBuffers, secondBuffers, fieldBuffers)) {
            assertReleasedOnce(buffers);
        }
    }

    @Test
    void aFilePartWithNoContentGivesAnEmptyFile() throws Exception {
        List<StoredPart> stored = FileParts.store(file("empty", "e.bin", Flux.empty()), event -> dir.resolve("empty"))
                .collectList()
                .block(WAIT);

        assertEquals(List.of(new StoredPart("empty", "e.bin", dir.resolve("empty"), 0)), stored);
        assertEquals(0, Files.size(dir.resolve("empty")));
    }

    @Test
    void aPartGivenNoTargetIsReleasedUnreadAndTheNextOneStored() throws Exception {
        byte[] skipped = random(300_000, 3);
        byte[] kept = random(5000, 4);
        TrackedBuffers skippedBuffers = new TrackedBuffers(skipped, 4096, null);
        TrackedBuffers keptBuffers = new TrackedBuffers(kept, 777, null);
        Flux<PartEvent> parts =
                Flux.concat(file("other", "x.bin", skippedBuffers.flux()), file("file", "y.bin", keptBuffers.flux()));

        List<StoredPart> stored = FileParts.store(
                        parts, event -> event.name().equals("file") ? dir.resolve("kept") : null)
                .collectList()
                .block(WAIT);

        assertEquals(List.of(new StoredPart("file", "y.bin", dir.resolve("kept"), kept.length)), stored);
        assertArrayEquals(kept, Files.readAllBytes(dir.resolve("kept")));
        assertReleasedOnce(skippedBuffers);
        assertReleasedOnce(keptBuffers);
    }

    @Test
    void anUploadFailingMidPartFailsTheStoreLeavesNoFileWithAtomicReplaceAndReleasesEverything() throws Exception {
        byte[] content = random(500_000, 5);
        TrackedBuffers buffers = new TrackedBuffers(content, 10_000, null);
        IOException broken = new IOException("connection reset");
        Flux<PartEvent> parts = file("file", "f.bin", buffers.flux().concatWith(Flux.error(broken)));

        Throwable failure = assertThrows(
                RuntimeException.class,
                () -> FileParts.store(parts, event -> dir.resolve("target"), ATOMIC)
                        .blockLast(WAIT));

        assertSame(broken, failure.getCause());
        assertReleasedOnce(buffers);
        try (var left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), "atomic replace leaves nothing");
        }
    }

    @Test
    void aTargetFunctionThatThrowsFailsTheStoreAndReleasesEverything() throws Exception {
        TrackedBuffers buffers = new TrackedBuffers(random(100_000, 6), 1000, null);
        IllegalStateException refused = new IllegalStateException("no room");
        Function<FilePartEvent, Path> refusing = event -> {
            throw refused;
        };

        Throwable failure = assertThrows(
                IllegalStateException.class,
                () -> FileParts.store(file("file", "f.bin", buffers.flux()), refusing)
                        .blockLast(WAIT));

        assertSame(refused, failure);
        assertReleasedOnce(buffers);
    }

    @Test
    void cancellingMidPartReleasesEveryBufferReceived() throws Exception {
        TrackedBuffers buffers = new TrackedBuffers(random(400_000, 7), 4096, null);
        CountDownLatch allSent = new CountDownLatch(1);
        Flux<DataBuffer> stalled =
                buffers.flux().concatWith(Flux.<DataBuffer>never().doOnSubscribe(subscription -> allSent.countDown()));
        Path target = dir.resolve("target");

        Disposable store = FileParts.store(file("file", "f.bin", stalled), event -> target, ATOMIC)
                .subscribe();
        assertTrue(allSent.await(30, TimeUnit.SECONDS), "every buffer was sent");
        store.dispose();

        assertReleasedOnce(buffers);
    }

    @Test
    void cancellingAtAnyMomentWhileTheUploadArrivesOnAnotherThreadReleasesEveryBuffer() throws Exception {
        Scheduler network = Schedulers.newSingle("network");
        Random random = new Random(11);
        try {
            for (int round = 0; round < CANCEL_ROUNDS; round++) {
                TrackedBuffers buffers = new TrackedBuffers(random(32 * 1024, round), 1024, null);
                Flux<PartEvent> parts = file("file", "f.bin", buffers.flux().subscribeOn(network));
                Path target = dir.resolve("target-" + round);

                Disposable store =
                        FileParts.store(parts, event -> target, ATOMIC).subscribe();
                spinMicros(random.nextInt(1_500));
                store.dispose();

                awaitEveryCreatedReleasedOnce(buffers, "round " + round);
            }
        } finally {
            network.dispose();
        }
    }

    @Test
    void nullArgumentsThrowAtTheCall() {
        Flux<PartEvent> parts = Flux.empty();
        Function<FilePartEvent, Path> targetOf = event -> dir.resolve("x");
        assertThrows(NullPointerException.class, () -> FileParts.store(null, targetOf));
        assertThrows(NullPointerException.class, () -> FileParts.store(parts, null));
        assertThrows(NullPointerException.class, () -> FileParts.store(parts, targetOf, null));
    }

    private static Flux<PartEvent> file(String name, String filename, Flux<DataBuffer> content) {
        return FilePartEvent.create(name, filename, MediaType.APPLICATION_OCTET_STREAM, content)
                .cast(PartEvent.class);
    }

    /** A form field whose content is {@code value}, as one event. */
    private static PartEvent field(String name, DataBuffer value) {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentDispositionFormData(name, null);
        return new FormPartEvent() {
            @Override
            public String value() {
                return value.toString(StandardCharsets.UTF_8);
            }

            @Override
            public HttpHeaders headers() {
                return headers;
            }

            @Override
            public DataBuffer content() {
                return value;
            }

            @Override
            public boolean isLast() {
                return true;
            }
        };
    }

    private static void assertReleasedOnce(TrackedBuffers buffers) throws InterruptedException {
        buffers.awaitAllReleased();
        assertEquals(List.of(), buffers.problems());
        assertEquals(Collections.nCopies(buffers.createdCount(), 1), buffers.releaseCounts());
    }

    /**
     * Waits until each buffer the source created was released once and no new one appeared for a
     * moment (a source cancelled late may create one more); fails after 10 s.
     */
    private static void awaitEveryCreatedReleasedOnce(TrackedBuffers buffers, String when) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (; ; ) {
            List<Integer> counts = buffers.releaseCounts();
            assertEquals(List.of(), buffers.problems(), when);
            if (counts.stream().allMatch(count -> count == 1)) {
                Thread.sleep(5);
                if (buffers.releaseCounts().equals(counts)) {
                    return;
                }
            } else if (System.nanoTime() > deadline) {
                throw new AssertionError(when + ": not every buffer was released once: " + counts);
            } else {
                Thread.sleep(1);
            }
        }
    }

    private static void spinMicros(long micros) {
        long end = System.nanoTime() + micros * 1000;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    private static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
