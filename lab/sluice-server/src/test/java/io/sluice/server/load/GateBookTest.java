package io.sluice.server.load;

import io.sluice.lab.Estimate;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Gate lines and counts: PASS/FAIL on one sample, met/missed/inconclusive by the interval on repeats. */
class GateBookTest {

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    @Test
    void oneSampleIsPassOrFailByItsValueAndCountedAsBefore() {
        GateBook book = book(1);
        book.all("A at least 10", "A 12", List.of(check(new double[] {12}, 10, false)));
        book.all("A at most 10", "A 12", List.of(check(new double[] {12}, 10, true)));
        assertEquals(1, book.close());
        assertEquals("PASS A at least 10: A 12\nFAIL A at most 10: A 12\n1 passed, 1 failed\n", text());
    }

    @Test
    void repeatsAreMetMissedOrInconclusiveByWhereTheIntervalLies() {
        GateBook book = book(5);
        book.all("clears", "unused", List.of(check(new double[] {20, 21, 22, 21, 20}, 10, false)));
        book.all("below", "unused", List.of(check(new double[] {5, 6, 5, 6, 5}, 10, false)));
        book.all("straddles", "unused", List.of(check(new double[] {5, 15, 8, 12, 10}, 10, false)));
        assertEquals(1, book.close(), "a missed gate fails the run; an inconclusive one does not");
        List<String> lines = text().lines().toList();
        assertTrue(
                lines.get(0).matches("MET clears: figure 20\\.8 \\(20\\.\\d\\.\\.21\\.\\d\\) >= 10\\.0"), lines.get(0));
        assertTrue(
                lines.get(1).matches("MISSED below: figure 5\\.40 \\(5\\.\\d\\d\\.\\.5\\.\\d\\d\\) >= 10\\.0"),
                lines.get(1));
        assertTrue(lines.get(2).startsWith("INCONCLUSIVE straddles: figure 10.0 ("), lines.get(2));
        assertEquals("1 met, 1 missed, 1 inconclusive (5 repeats, 95% intervals)", lines.get(3));
    }

    @Test
    void aGateOfSeveralChecksIsMissedByAnyMissedCheckAndMetOnlyByAll() {
        GateBook book = book(3);
        double[] met = {1, 1, 1};
        double[] missed = {9, 9, 9};
        double[] straddles = {1, 3, 5};
        book.all("all of met and straddles", "", List.of(check(met, 2, true), check(straddles, 2, true)));
        book.all("all of straddles and missed", "", List.of(check(straddles, 2, true), check(missed, 2, true)));
        book.any("any of missed and met", "", List.of(check(missed, 2, true), check(met, 2, true)));
        book.any("any of missed and straddles", "", List.of(check(missed, 2, true), check(straddles, 2, true)));
        book.any("any of missed and missed", "", List.of(check(missed, 2, true), check(missed, 2, true)));
        book.all("all of not measured", "", List.of(check(new double[] {Double.NaN, 1, 1}, 2, true)));
        book.close();
        assertEquals(
                List.of(
                        "INCONCLUSIVE all of met and straddles",
                        "MISSED all of straddles and missed",
                        "MET any of missed and met",
                        "INCONCLUSIVE any of missed and straddles",
                        "MISSED any of missed and missed",
                        "MISSED all of not measured",
                        "1 met, 3 missed, 2 inconclusive (3 repeats, 95% intervals)"),
                text().lines()
                        .map(line -> line.contains(":") ? line.substring(0, line.indexOf(':')) : line)
                        .toList());
    }

    private GateBook book(int repeats) {
        return new GateBook(repeats, new PrintStream(printed, true, StandardCharsets.UTF_8));
    }

    private static GateBook.Check check(double[] values, double target, boolean atMost) {
        return new GateBook.Check("figure", Estimate.mean(values), target, atMost);
    }

    private String text() {
        return printed.toString(StandardCharsets.UTF_8);
    }
}
