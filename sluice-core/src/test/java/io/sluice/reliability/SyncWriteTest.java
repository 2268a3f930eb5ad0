package io.sluice.reliability;

import io.sluice.IoExecutors;
import io.sluice.ReactiveFile;
import io.sluice.WriteOptions;
import io.sluice.internal.write.WriteSink;
import io.sluice.internal.write.Writes;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The durable option: the stage completes only after the sink is forced and closed (W6, with a
 * scripted sink), and on a real file that force is an fsync of data and metadata (seen through the
 * JDK's flight recorder).
 */
class SyncWriteTest {

    @TempDir
    Path directory;

    @Test
    void stageCompletesOnlyAfterTheSinkIsForcedAndClosed() throws Exception {
        CountDownLatch forceEntered = new CountDownLatch(1);
        CountDownLatch releaseForce = new CountDownLatch(1);
        List<String> calls = new CopyOnWriteArrayList<>();
        WriteSink sink = new WriteSink() {
            @Override
            public void open(Stop stop) {
                calls.add("open");
            }

            @Override
            public boolean writeFully(ByteBuffer[] items, int offset, int count) {
                for (int i = offset; i < offset + count; i++) {
                    items[i].position(items[i].limit());
                }
                calls.add("write");
                return true;
            }

            @Override
            public void force() throws java.io.InterruptedIOException {
                calls.add("force");
                forceEntered.countDown();
                try {
                    assertTrue(releaseForce.await(30, TimeUnit.SECONDS), "test never released force");
                } catch (InterruptedException e) {
                    throw new java.io.InterruptedIOException("interrupted while forcing");
                }
            }

            @Override
            public void close() {
                calls.add("close");
            }
        };
        CompletableFuture<Long> stage = Writes.start(
                        Flux.just(ByteBuffer.wrap(new byte[10])),
                        sink,
                        WriteOptions.defaults().withSync(),
                        IoExecutors.files(),
                        "blocking-force")
                .toCompletableFuture();

        assertTrue(forceEntered.await(30, TimeUnit.SECONDS), "force was never called");
        assertFalse(stage.isDone(), "the stage completed while force was still running");
        releaseForce.countDown();

        assertEquals(10L, Stages.value(stage));
        assertEquals(
                List.of("force", "close"),
                calls.subList(calls.size() - 2, calls.size()),
                "force, then close, before completion: " + calls);
    }

    @Test
    void withoutSyncTheSinkIsNeverForced() {
        List<String> calls = new CopyOnWriteArrayList<>();
        WriteSink sink = new RecordingSink(calls);
        Stages.value(Writes.start(
                Flux.just(ByteBuffer.wrap(new byte[3])),
                sink,
                WriteOptions.defaults(),
                IoExecutors.files(),
                "no-sync"));
        assertFalse(calls.contains("force"), "forced without sync: " + calls);
    }

    /**
     * The mock sink above proves the order; this proves the real file is forced. The JDK's own
     * {@code jdk.FileForce} flight-recorder event (emitted by {@code FileChannel.force}) shows which
     * files were forced and whether with metadata; a content check alone would pass with no fsync.
     */
    @Test
    void aSyncWriteForcesTheRealFileWithItsMetadataAndAPlainWriteDoesNot() throws Exception {
        byte[] data = Content.bytes(7, 300_000);
        Path synced = directory.resolve("synced");
        Path plain = directory.resolve("plain");
        List<RecordedEvent> forces;
        try (Recording recording = new Recording()) {
            recording.enable("jdk.FileForce").withThreshold(Duration.ZERO);
            recording.start();
            assertEquals(
                    data.length,
                    Stages.value(ReactiveFile.of(synced)
                            .write(
                                    Content.publisher(data, 10_000, 1),
                                    WriteOptions.defaults().withSync())));
            assertEquals(data.length, Stages.value(ReactiveFile.of(plain).write(Content.publisher(data, 10_000, 1))));
            recording.stop();
            Path dump = directory.resolve("forces.jfr");
            recording.dump(dump);
            forces = RecordingFile.readAllEvents(dump).stream()
                    .filter(event -> event.getEventType().getName().equals("jdk.FileForce"))
                    .collect(Collectors.toList());
        }

        List<Boolean> syncedForces = metaDataFlagsOfForces(forces, synced);
        assertFalse(syncedForces.isEmpty(), "withSync() never forced " + synced + "; forces seen: " + forces);
        assertTrue(
                syncedForces.stream().allMatch(Boolean::booleanValue),
                "withSync() forces data and metadata, force(true): " + syncedForces);
        assertEquals(List.of(), metaDataFlagsOfForces(forces, plain), "a write without sync was forced");
        assertEquals(Content.sha256(data), Content.sha256(synced));
        assertEquals(Content.sha256(data), Content.sha256(plain));
    }

    /** The {@code metaData} flag of every recorded {@code jdk.FileForce} of {@code file}. */
    private static List<Boolean> metaDataFlagsOfForces(List<RecordedEvent> events, Path file) {
        List<Boolean> flags = new ArrayList<>();
        for (RecordedEvent event : events) {
            String path = event.getString("path");
            if (path != null && Paths.get(path).toAbsolutePath().equals(file.toAbsolutePath())) {
                flags.add(event.getBoolean("metaData"));
            }
        }
        return flags;
    }

    @Test
    void atomicReplaceImpliesSync() {
        assertTrue(WriteOptions.defaults().withAtomicReplace().sync());
        assertTrue(WriteOptions.defaults().withAtomicReplace().atomicReplace());
        assertFalse(WriteOptions.defaults().atomicReplace());
    }

    private static final class RecordingSink implements WriteSink {
        private final List<String> calls;

        RecordingSink(List<String> calls) {
            this.calls = calls;
        }

        @Override
        public void open(Stop stop) {
            calls.add("open");
        }

        @Override
        public boolean writeFully(ByteBuffer[] items, int offset, int count) {
            for (int i = offset; i < offset + count; i++) {
                items[i].position(items[i].limit());
            }
            return true;
        }

        @Override
        public void force() {
            calls.add("force");
        }

        @Override
        public void close() {
            calls.add("close");
        }
    }
}
