package io.sluice.examples;

import io.sluice.ReactiveFile;
import jdk.jfr.Recording;
import jdk.jfr.ValueDescriptor;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/USING.md describes the Flight Recorder event a write emits: its name, label,
 * category and the table of fields must be what a real recording of a real write contains.
 */
class FlightRecorderDocTest {

    private static final String EVENT = "io.sluice.Write";
    /** Fields every JFR event has that the table leaves out: JFR documents them. */
    private static final Set<String> STANDARD_FIELDS = Set.of("eventThread", "stackTrace");
    /** A table row: the field names in backquotes, then their labels. */
    private static final Pattern ROW = Pattern.compile("^\\| (`\\w+`(?:, `\\w+`)*) \\| ([^|]+) \\|");

    @TempDir
    Path dir;

    @Test
    void usingMdDescribesTheEventThatARecordedWriteContains() throws Exception {
        RecordedEvent write = recordOneWrite();
        Map<String, String> recorded = new TreeMap<>();
        for (ValueDescriptor field : write.getFields()) {
            if (!STANDARD_FIELDS.contains(field.getName())) {
                recorded.put(field.getName(), field.getLabel());
            }
        }
        String using = Files.readString(Path.of("..", "docs", "USING.md"));

        assertEquals(recorded, new TreeMap<>(documentedFields(using)));
        assertTrue(
                using.contains(
                        "`" + EVENT + "`, labelled *" + write.getEventType().getLabel() + "*"),
                "USING.md names the event and its label " + write.getEventType().getLabel());
        assertTrue(
                using.contains("*" + String.join(" / ", write.getEventType().getCategoryNames()) + "*"),
                "USING.md names the category " + write.getEventType().getCategoryNames());
        assertTrue(using.contains("jfr print --events " + EVENT + " rec.jfr"));
    }

    private RecordedEvent recordOneWrite() throws Exception {
        Path source = TestData.file(dir.resolve("in.bin"), 21, 300_000);
        Path dump = dir.resolve("rec.jfr");
        try (Recording recording = new Recording()) {
            recording.enable(EVENT);
            recording.start();
            ReactiveFile.of(dir.resolve("out.bin"))
                    .write(ReactiveFile.of(source).read())
                    .toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
            recording.stop();
            recording.dump(dump);
        }
        List<RecordedEvent> writes = RecordingFile.readAllEvents(dump).stream()
                .filter(event -> event.getEventType().getName().equals(EVENT))
                .toList();
        assertEquals(1, writes.size(), "one write, one event");
        assertEquals(300_000, writes.get(0).getLong("bytes"));
        return writes.get(0);
    }

    /** Field name to label, from the table under "| field | label | value |". */
    private static Map<String, String> documentedFields(String using) {
        Map<String, String> fields = new LinkedHashMap<>();
        List<String> lines = using.lines().toList();
        int header = lines.indexOf("| field | label | value |");
        assertTrue(header >= 0, "USING.md has the event's field table");
        for (String line : lines.subList(header + 2, lines.size())) {
            Matcher row = ROW.matcher(line);
            if (!row.find()) {
                break;
            }
            String[] names = row.group(1).replace("`", "").split(", ");
            String[] labels = row.group(2).strip().split(", ");
            assertEquals(names.length, labels.length, "one label per field in: " + line);
            for (int i = 0; i < names.length; i++) {
                fields.put(names[i], labels[i]);
            }
        }
        return fields;
    }
}
