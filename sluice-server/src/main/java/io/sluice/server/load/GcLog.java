package io.sluice.server.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server's {@code -Xlog:gc} file, read from outside the process. Every pause line ends with
 * {@code before->after(committed)}; "after" is the heap right after a collection. The highest
 * "after" during a load is an upper bound on the live set that costs the run nothing (a young
 * pause leaves old garbage in place); after a forced full collection ({@code jcmd PID GC.run},
 * which is {@code System.gc()}, a full pause in G1, Serial and Parallel) it is the live set itself.
 */
final class GcLog {

    private static final Pattern PAUSE = Pattern.compile(
            "Pause (Young|Full).*?\\s(\\d+)([KMG])->(\\d+)([KMG])\\((\\d+)([KMG])\\)");

    private final Path file;

    GcLog(Path file) {
        this.file = file;
    }

    Path file() {
        return file;
    }

    /** Pause lines so far (a mark: later calls look only at lines after it). */
    int pauses() {
        return (int) lines().stream().filter(line -> PAUSE.matcher(line).find()).count();
    }

    /** The highest heap-after-GC of the pauses after {@code mark}, in bytes. */
    OptionalLong peakAfterBytes(int mark) {
        List<Long> after = afterBytes(lines());
        return after.stream().skip(mark).mapToLong(Long::longValue).max();
    }

    /** The heap after the last full pause after {@code mark} (a forced GC), in bytes. */
    OptionalLong lastFullAfterBytes(int mark) {
        List<String> pauses = lines().stream().filter(line -> PAUSE.matcher(line).find()).toList();
        OptionalLong last = OptionalLong.empty();
        for (String line : pauses.subList(Math.min(mark, pauses.size()), pauses.size())) {
            Matcher matcher = PAUSE.matcher(line);
            if (matcher.find() && matcher.group(1).equals("Full")) {
                last = OptionalLong.of(bytes(matcher.group(4), matcher.group(5)));
            }
        }
        return last;
    }

    /** The "after" values of every pause line, in order. */
    static List<Long> afterBytes(List<String> lines) {
        return lines.stream().map(PAUSE::matcher).filter(Matcher::find)
                .map(matcher -> bytes(matcher.group(4), matcher.group(5))).toList();
    }

    private static long bytes(String number, String unit) {
        long value = Long.parseLong(number);
        return switch (unit) {
            case "K" -> value * 1024;
            case "M" -> value * 1024 * 1024;
            default -> value * 1024 * 1024 * 1024;
        };
    }

    private List<String> lines() {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            return List.of();
        }
    }
}
