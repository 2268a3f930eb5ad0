package io.sluice.testkit;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Quoted fields survive a round trip; an unclosed quote is refused. */
class CsvTest {

    @Test
    void quotedFieldsHoldCommasAndQuotes() {
        String line = String.join(",", "s", Csv.quote("fixed(4,1)"), Csv.quote("say \"hi\""), "", Csv.quote("a\nb"));
        assertEquals("s,\"fixed(4,1)\",\"say \"\"hi\"\"\",,\"a b\"", line);
        assertEquals(List.of("s", "fixed(4,1)", "say \"hi\"", "", "a b"), Csv.fields(line));
        assertEquals(List.of("unquoted text", "1.5"), Csv.fields("unquoted text,1.5"));
    }

    @Test
    void anUnclosedQuoteIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Csv.fields("\"fixed(16,4),1,2"));
    }
}
