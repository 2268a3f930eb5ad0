package io.sluice.server;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line: defaults, every flag, and the refusals {@code main} turns into exit status 2. */
class MainTest {

    @Test
    void defaultsAreLaneCOnLoopbackPort8080() {
        assertEquals(new ServerConfig(Lane.C, "127.0.0.1", 8080, Path.of("data"),
                ServerConfig.DEFAULT_MAX_UPLOAD_BYTES, ServerConfig.DEFAULT_PLATFORM_THREADS, UploadEvents.NONE,
                ServerConfig.DEFAULT_DOWNLOAD_CHUNKS), Main.parse(new String[0]));
    }

    @Test
    void readsEveryFlag() {
        ServerConfig config = Main.parse(new String[] {"--lane", "c-unbounded", "--port", "0", "--host", "0.0.0.0",
            "--dir", "/tmp/x", "--max-upload-bytes", "1024", "--threads", "16"});
        assertEquals(new ServerConfig(Lane.C_UNBOUNDED, "0.0.0.0", 0, Path.of("/tmp/x"), 1024, 16, UploadEvents.NONE,
                ServerConfig.DEFAULT_DOWNLOAD_CHUNKS), config);
    }

    @Test
    void refusesUnknownFlagsMissingValuesAndHelpWithAUsageLine() {
        assertTrue(message("--bogus", "1").contains("unknown flag --bogus"));
        assertTrue(message("--lane", "C", "--port").contains("--port needs a value"));
        assertTrue(message("--help").startsWith("usage: --lane A|B|C|C-unbounded"));
        assertTrue(message("--lane", "Z").contains("unknown lane 'Z'"));
        assertThrows(NumberFormatException.class, () -> Main.parse(new String[] {"--port", "x"}));
    }

    private static String message(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> Main.parse(args)).getMessage();
    }
}
