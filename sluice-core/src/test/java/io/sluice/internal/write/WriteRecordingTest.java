package io.sluice.internal.write;

import io.sluice.ReactiveFile;
import io.sluice.testing.TestPublishers;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WriteRecordingTest {

    @TempDir
    Path dir;

    @Test
    void aWriteShowsUpInFlightRecorderWithItsCounters() throws Exception {
        // Under load, JDK 17's recording file has been seen to give back null for the event's short
        // string field (the strategy) while its long one (the target path) and every counter were
        // right. So up to three recordings are made; the counters are checked in each, the strings
        // in the first whose strings came back.
        RecordedEvent write = null;
        for (int attempt = 1; attempt <= 3 && (write == null || write.getString("strategy") == null); attempt++) {
            write = recordOneWrite(dir.resolve("out-" + attempt));
            assertEquals(100_000, write.getLong("bytes"));
            assertEquals(100, write.getLong("items"));
            assertTrue(write.getLong("requestCalls") >= 2);
            assertTrue(write.getLong("peakQueuedBytes") <= 1024 * 1024);
        }
        assertEquals("completed", write.getString("outcome"));
        assertTrue(write.getString("strategy").startsWith("adaptive"), write.getString("strategy"));
    }

    /** Writes 100 items of 1,000 bytes to {@code target} while recording; returns that write's event. */
    private RecordedEvent recordOneWrite(Path target) throws Exception {
        Path dump = dir.resolve(target.getFileName() + ".jfr");
        try (Recording recording = new Recording()) {
            recording.enable("io.sluice.Write");
            recording.start();
            ReactiveFile.of(target)
                    .write(TestPublishers.chunks(new byte[100_000], 1000))
                    .toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
            recording.stop();
            recording.dump(dump);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(dump);
        // Other tests' writes in this JVM may end while the recording runs: take this write's event.
        return events.stream()
                .filter(event -> event.getEventType().getName().equals("io.sluice.Write"))
                .filter(event -> target.toString().equals(event.getString("target")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no io.sluice.Write event for " + target + " in " + events));
    }
}
