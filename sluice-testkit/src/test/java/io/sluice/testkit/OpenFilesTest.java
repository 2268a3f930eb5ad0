package io.sluice.testkit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OpenFilesTest {

    @TempDir
    Path directory;

    @Test
    void seesAFileWhileItIsOpenAndNotAfter() throws Exception {
        String os = System.getProperty("os.name");
        if (os.toLowerCase(Locale.ROOT).contains("linux")) {
            assertTrue(OpenFiles.supported(), "Linux has /proc/self/fd: the counter must see it");
        }
        Assumptions.assumeTrue(OpenFiles.supported(), "no /proc/self/fd on " + os);
        Path file = Files.createFile(directory.resolve("a.bin"));
        Path sibling = Files.createDirectory(directory.resolveSibling(directory.getFileName() + "-sibling"));
        List<String> baseline = OpenFiles.targets();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE);
                FileChannel other =
                        FileChannel.open(Files.createFile(sibling.resolve("b.bin")), StandardOpenOption.WRITE)) {
            assertEquals(
                    List.of(file.toRealPath().toString()),
                    OpenFiles.under(directory),
                    "the file under the directory, not the one in its sibling whose name it prefixes");
            assertEquals(1, OpenFiles.under(directory).size());
            assertEquals(OpenFiles.under(directory), OpenFiles.inside(directory));
            assertEquals(2, OpenFiles.openedSince(baseline).size());
        } finally {
            Files.walk(sibling)
                    .sorted(java.util.Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        }
        OpenFiles.awaitNoneUnder(directory);
        OpenFiles.awaitClosed(directory, baseline);
        assertEquals(List.of(), OpenFiles.under(directory));
    }
}
