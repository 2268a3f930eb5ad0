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
        RecordedEvent write = events.stream().filter(event -> event.getEventType().getName().equals("io.sluice.Write"))
                .findFirst().orElseThrow(() -> new AssertionError("no io.sluice.Write event in " + events));
        assertEquals(target.toString(), write.getString("target"));
        assertEquals(100_000, write.getLong("bytes"));
        assertEquals(100, write.getLong("items"));
        assertEquals("completed", write.getString("outcome"));
        assertTrue(write.getLong("requestCalls") >= 2);
        assertTrue(write.getLong("peakQueuedBytes") <= 1024 * 1024);
        assertTrue(write.getString("strategy").startsWith("adaptive"));
    }
}
