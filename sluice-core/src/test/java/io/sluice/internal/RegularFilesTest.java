package io.sluice.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checks answer the same through {@code java.io.File} (no exception for a missing file) as
 * through the NIO calls: a regular file passes, nothing passes where a write may create it, and
 * anything else is refused with the exception naming it. Special files: {@code SpecialFilesTest}.
 */
class RegularFilesTest {

    @TempDir
    Path dir;

    @Test
    void aRegularFileIsThereAndReadable() throws Exception {
        Path file = Files.write(dir.resolve("file"), new byte[] {1});
        Path link = Files.createSymbolicLink(dir.resolve("link"), file);

        RegularFiles.requireRegular(file);
        RegularFiles.requireReadableRegular(file);
        RegularFiles.requireReadableRegular(link);
        assertTrue(RegularFiles.requireRegularOrAbsent(file));
        assertTrue(RegularFiles.requireRegularOrAbsent(link));
    }

    @Test
    void nothingThereIsAbsentForAWriteAndNoSuchFileForARead() throws Exception {
        Path missing = dir.resolve("missing");
        Path dangling = Files.createSymbolicLink(dir.resolve("dangling"), dir.resolve("nowhere"));

        assertFalse(RegularFiles.requireRegularOrAbsent(missing));
        assertFalse(RegularFiles.requireRegularOrAbsent(dangling));
        assertFalse(RegularFiles.requireRegularOrAbsent(missing.resolve("below")));
        assertEquals(
                missing.toString(),
                assertThrows(NoSuchFileException.class, () -> RegularFiles.requireRegular(missing))
                        .getFile());
        assertThrows(NoSuchFileException.class, () -> RegularFiles.requireReadableRegular(dangling));
    }

    @Test
    void aDirectoryIsRefusedByEveryCheck() throws Exception {
        Path directory = Files.createDirectory(dir.resolve("directory"));
        Path link = Files.createSymbolicLink(dir.resolve("to-directory"), directory);

        for (Path path : new Path[] {directory, link}) {
            assertEquals(
                    "Is a directory",
                    assertThrows(FileSystemException.class, () -> RegularFiles.requireRegularOrAbsent(path))
                            .getReason());
            assertEquals(
                    "Is a directory",
                    assertThrows(FileSystemException.class, () -> RegularFiles.requireRegular(path))
                            .getReason());
            assertEquals(
                    "Is a directory",
                    assertThrows(FileSystemException.class, () -> RegularFiles.requireReadableRegular(path))
                            .getReason());
        }
    }
}
