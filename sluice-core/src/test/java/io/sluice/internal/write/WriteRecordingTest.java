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
        Path target = dir.resolve("out");
        Path dump = dir.resolve("recording.jfr");
        try (Recording recording = new Recording()) {
            recording.enable("io.sluice.Write");
            recording.start();
            ReactiveFile.of(target).write(TestPublishers.chunks(new byte[100_000], 1000))
                    .toCompletableFuture().get(30, TimeUnit.SECONDS);
            recording.stop();
            recording.dump(dump);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(dump);
        // Other tests' writes in this JVM may end while the recording runs: take this write's event.
        RecordedEvent write = events.stream().filter(event -> event.getEventType().getName().equals("io.sluice.Write"))
                .filter(event -> target.toString().equals(event.getString("target")))
                .findFirst().orElseThrow(() -> new AssertionError("no io.sluice.Write event for " + target + " in " + events));
        assertEquals(100_000, write.getLong("bytes"));
        assertEquals(100, write.getLong("items"));
        assertEquals("completed", write.getString("outcome"));
        assertTrue(write.getLong("requestCalls") >= 2);
        assertTrue(write.getLong("peakQueuedBytes") <= 1024 * 1024);
        assertTrue(write.getString("strategy").startsWith("adaptive"));
    }
}
