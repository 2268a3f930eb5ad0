package io.sluice.reliability;

import io.sluice.ReactiveFile;
import io.sluice.ReadOptions;
import io.sluice.WriteOptions;
import io.sluice.demand.Demand;
import io.sluice.testkit.OpenFiles;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sizes where off-by-one and int-overflow bugs live: empty, one byte, read-chunk, writer-staging
 * and copy-slice boundaries +-1, and offsets beyond {@link Integer#MAX_VALUE} in sparse files (the
 * holes read as zeros; only the copy over 2 GiB writes real blocks, and deletes them at once).
 * Content is checked by SHA-256 after write, read and copy.
 */
class SizesTest {

    private static final long GIB = 1024L * 1024 * 1024;
    private static final int COPY_SLICE_BYTES = 8 * 1024 * 1024; // FileCopy.SLICE_BYTES
    /** The writer copies heap items into direct buffers of this size (DirectStaging.STAGING_BYTES, package-private). */
    private static final int STAGING_BYTES = 256 * 1024;

    @TempDir
    Path directory;

    private List<String> baselineFds;

    @BeforeEach
    void baseline() {
        baselineFds = OpenFiles.targets();
    }

    @Test
    void boundarySizesSurviveWriteReadAndCopy() throws Exception {
        TreeSet<Integer> sizes = new TreeSet<>(List.of(0, 1, 2));
        for (int chunk : new int[] {4096, ReadOptions.DEFAULT_CHUNK_SIZE_BYTES}) {
            for (int multiple : new int[] {1, 2}) {
                sizes.addAll(List.of(multiple * chunk - 1, multiple * chunk, multiple * chunk + 1));
            }
        }
        sizes.addAll(List.of(STAGING_BYTES - 1, STAGING_BYTES, STAGING_BYTES + 1));
        sizes.addAll(List.of(COPY_SLICE_BYTES - 1, COPY_SLICE_BYTES, COPY_SLICE_BYTES + 1));
        Random random = new Random(3);
        for (int size : sizes) {
            byte[] data = Content.bytes(size, size);
            String expected = Content.sha256(data);
            Path written = directory.resolve("w" + size);
            long count = Stages.value(
                    ReactiveFile.of(written).write(Content.publisher(data, 1 + random.nextInt(3 * 4096), size)));
            assertEquals(size, count, "byte count of the write");
            assertEquals(expected, Content.sha256(written), "write of " + size);
            // unbounded demand: the synchronous upstream delivers every item inside the first
            // request, so the writer stages the whole content as one batch of heap items and the
            // staging boundary sizes fill the last staging buffer exactly, short of it, or by one
            Path oneBatch = directory.resolve("u" + size);
            assertEquals(
                    size,
                    Stages.value(ReactiveFile.of(oneBatch)
                            .write(
                                    Content.publisher(data, 1 + random.nextInt(3 * 4096), size),
                                    WriteOptions.defaults().withDemand(Demand.unbounded()))),
                    "byte count of the one-batch write");
            assertEquals(expected, Content.sha256(oneBatch), "one-batch write of " + size);
            Files.delete(oneBatch);

            for (int chunk : new int[] {4096, ReadOptions.DEFAULT_CHUNK_SIZE_BYTES}) {
                assertReadsBack(written, chunk, expected, size);
            }

            Path copy = directory.resolve("c" + size);
            assertEquals(size, Stages.value(ReactiveFile.of(written).copyTo(copy)));
            assertEquals(expected, Content.sha256(copy), "copy of " + size);
            Path atomicCopy = directory.resolve("a" + size);
            assertEquals(
                    size,
                    Stages.value(ReactiveFile.of(written)
                            .copyTo(atomicCopy, WriteOptions.defaults().withAtomicReplace())));
            assertEquals(expected, Content.sha256(atomicCopy), "atomic copy of " + size);
            Files.delete(written);
            Files.delete(copy);
            Files.delete(atomicCopy);
        }
        OpenFiles.awaitClosed(directory, baselineFds);
    }

    @Test
    void aRangedReadNearThreeGibReadsTheRightBytes() throws Exception {
        Path sparse = directory.resolve("sparse");
        long markerOffset = 3 * GIB;
        byte[] marker = Content.bytes(9, 65_536);
        try (RandomAccessFile file = new RandomAccessFile(sparse.toFile(), "rw")) {
            file.setLength(markerOffset + marker.length);
        }
        try (FileChannel channel = FileChannel.open(sparse, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(marker), markerOffset);
        }
        int before = 1000;
        int length = before + marker.length - 7;
        ByteBuffer expected = ByteBuffer.allocate(length);
        expected.position(before);
        expected.put(marker, 0, marker.length - 7);

        List<ByteBuffer> chunks =
                read(sparse, ReadOptions.range(markerOffset - before, length).withChunkSize(16 * 1024));

        assertEquals(Content.sha256(expected.array()), Content.sha256(chunks));
        List<ByteBuffer> tail = read(sparse, ReadOptions.range(markerOffset + marker.length - 10, 1000));
        assertEquals(10, tail.stream().mapToInt(ByteBuffer::remaining).sum(), "a range past the end is cut at it");
        assertTrue(Integer.MAX_VALUE < markerOffset - before);
        OpenFiles.awaitClosed(directory, baselineFds);
    }

    @Test
    void anAppendAfterASparseHoleBeyondTwoGibLandsAtTheEnd() throws Exception {
        Path sparse = directory.resolve("holey");
        long hole = 2 * GIB + GIB / 2;
        try (RandomAccessFile file = new RandomAccessFile(sparse.toFile(), "rw")) {
            file.setLength(hole);
        }
        byte[] data = Content.bytes(10, 1024 * 1024 + 3);

        long count =
                Stages.value(ReactiveFile.of(sparse).write(Content.publisher(data, 50_000, 10), WriteOptions.append()));

        assertEquals(data.length, count);
        assertEquals(hole + data.length, Files.size(sparse));
        assertEquals(Content.sha256(data), Content.sha256(read(sparse, ReadOptions.range(hole, Long.MAX_VALUE))));
        assertEquals(Content.sha256(new byte[100]), Content.sha256(read(sparse, ReadOptions.range(hole - 100, 100))));
        OpenFiles.awaitClosed(directory, baselineFds);
    }

    @Test
    void aCopyOfAFileOverTwoGibKeepsTheBytesPastTheBoundary() throws Exception {
        // 2 GiB + 3 MiB: a hole, then data straddling the 2 GiB line and the copy's slices
        Path source = directory.resolve("large");
        long dataAt = 2 * GIB - 1024 * 1024 - 5;
        byte[] data = Content.bytes(11, 4 * 1024 * 1024 + 9);
        try (FileChannel channel = FileChannel.open(source, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(data), dataAt);
        }
        long size = dataAt + data.length;
        Path target = directory.resolve("large-copy");
        try {
            assertEquals(size, Stages.value(ReactiveFile.of(source).copyTo(target)));
            assertEquals(size, Files.size(target));
            assertEquals(Content.sha256(data), Content.sha256(read(target, ReadOptions.range(dataAt, data.length))));
            assertEquals(
                    Content.sha256(new byte[4096]),
                    Content.sha256(read(target, ReadOptions.range(dataAt - 4096, 4096))));
        } finally {
            Files.deleteIfExists(target); // 2 GiB of real blocks: free them at once
        }
        OpenFiles.awaitClosed(directory, baselineFds);
    }

    private static void assertReadsBack(Path file, int chunk, String expected, int size) throws Exception {
        List<ByteBuffer> chunks = read(file, ReadOptions.defaults().withChunkSize(chunk));
        assertEquals(expected, Content.sha256(chunks), "read of " + size + " in chunks of " + chunk);
        for (int i = 0; i < chunks.size() - 1; i++) {
            assertEquals(chunk, chunks.get(i).remaining(), "every chunk but the last is full");
        }
        assertEquals((size + chunk - 1) / chunk, chunks.size(), "chunk count for " + size + " / " + chunk);
    }

    private static List<ByteBuffer> read(Path file, ReadOptions options) throws Exception {
        RecordingSubscriber reader = new RecordingSubscriber(Long.MAX_VALUE);
        ReactiveFile.of(file).read(options).subscribe(reader);
        reader.awaitTerminal();
        assertEquals(List.of(), reader.errors, "read of " + file + " " + options);
        assertEquals(1, reader.completions.get());
        return reader.chunks;
    }
}
