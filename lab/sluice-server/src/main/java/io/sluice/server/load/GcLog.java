package io.sluice.server.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server's {@code -Xlog:gc} file. Every pause line ends with {@code before->after(committed)}: the highest
 * "after" during a load bounds the live set from above (a young pause leaves old garbage); after a forced full
 * collection ({@code jcmd PID GC.run}) it is the live set.
 */
record GcLog(Path file) {

    private static final Pattern PAUSE =
            Pattern.compile("Pause (Young|Full).*?\\s(\\d+)([KMG])->(\\d+)([KMG])\\((\\d+)([KMG])\\)");

    record Pause(boolean full, long afterBytes) {}

    /** Pause lines so far (a mark: later calls look only at pauses after it). */
    int pauses() {
        return pauses(lines()).size();
    }

    /** The highest heap-after-GC of the pauses after {@code mark}, in bytes. */
    OptionalLong peakAfterBytes(int mark) {
        return pauses(lines()).stream().skip(mark).mapToLong(Pause::afterBytes).max();
    }

    /** The heap after the last full pause after {@code mark} (a forced GC), in bytes. */
    OptionalLong lastFullAfterBytes(int mark) {
        return pauses(lines()).stream()
                .skip(mark)
                .filter(Pause::full)
                .mapToLong(Pause::afterBytes)
                .reduce((earlier, later) -> later);
    }

    static List<Pause> pauses(List<String> lines) {
        return lines.stream()
                .map(PAUSE::matcher)
                .filter(Matcher::find)
                .map(matcher -> new Pause(matcher.group(1).equals("Full"), bytes(matcher.group(4), matcher.group(5))))
                .toList();
    }

    private static long bytes(String number, String unit) { // unit K, M or G
        return Long.parseLong(number) << 10 * ("KMG".indexOf(unit) + 1);
    }

    private List<String> lines() {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            return List.of();
        }
    }
}
