package io.sluice.lab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Quoted fields survive a round trip; an unclosed quote is refused; a file is read after its header. */
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

    @Test
    void aFileIsReadAfterOneOfItsHeadersAndAFailureNamesItsLine(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("x.csv"), "a,b\n\"x,y\",1\n\n z,2 \n");
        assertEquals(
                List.of("a,b:x,y=1", "a,b:z=2"),
                Csv.read(
                        file,
                        List.of("a", "a,b"),
                        (header, fields) -> header + ":" + fields.get(0) + "=" + Integer.parseInt(fields.get(1))));

        String refused = assertThrows(IOException.class, () -> Csv.read(file, List.of("c"), (header, fields) -> fields))
                .getMessage();
        assertTrue(refused.endsWith("the first line must be 'c', was 'a,b'"), refused);
        Files.writeString(file, "a,b\n1,2\n1,x\n");
        String failed = assertThrows(
                        IOException.class,
                        () -> Csv.read(file, List.of("a,b"), (header, fields) -> Integer.parseInt(fields.get(1))))
                .getMessage();
        assertTrue(failed.startsWith(file + ":3: "), failed);
    }
}
