package io.sluice.internal.write;

import io.sluice.ReactiveFile;
import io.sluice.WriteListener;
import io.sluice.WriteOptions;
import io.sluice.WriteSnapshot;
import io.sluice.testing.Bytes;
import io.sluice.testing.TestPublishers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * W12: what a listener is told is written is in the file when it is told, though a file's writer
 * stages small heap items; the last snapshot of a completed write counts every byte.
 */
class ListenerToldWrittenBytesTest {

    @TempDir
    Path directory;

    @Test
    void everySnapshotCountsOnlyBytesAlreadyInTheFileAndTheLastCountsThemAll_W12() throws Exception {
        Path target = directory.resolve("target.bin");
        byte[] content = Bytes.random(3 * 1024 * 1024 + 100, 12);
        List<String> overCounted = new ArrayList<>();
        List<Long> told = new ArrayList<>();
        WriteListener listener = new WriteListener() {
            @Override
            public void onPass(WriteSnapshot snapshot) { // on the drain: the write is not running
                long inFile = size(target);
                if (snapshot.writtenBytes() != inFile) {
                    overCounted.add(snapshot.writtenBytes() + " told, " + inFile + " in the file");
                }
                told.add(snapshot.writtenBytes());
            }
        };

        // 1 KiB heap items, asked for in batches and sent inside request(n): the writer stages them
        // and keeps a pass going while items come, so snapshots fall while bytes are staged
        long written = ReactiveFile.of(target)
                .write(
                        TestPublishers.chunks(content, 1024),
                        WriteOptions.defaults().withListener(listener))
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);

        assertEquals(content.length, written);
        assertArrayEquals(content, Files.readAllBytes(target));
        assertTrue(told.size() > 1, "snapshots during the write: " + told.size());
        assertEquals(List.of(), overCounted, "snapshots counting staged bytes as written");
        assertEquals(content.length, told.get(told.size() - 1), "the last snapshot counts every byte");
    }

    private static long size(Path file) {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
