package io.sluice.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32C;

/**
 * The bytes every benchmark writes and expects: chunk {@code k} (1 KiB) holds
 * {@code TEMPLATE[k % 251 ..]}, so a shifted, dropped, duplicated or reordered chunk changes the
 * file's CRC, and any byte's expected value follows from its offset alone.
 */
public final class Payload {

    /** The write operations' item size, as in the paper. */
    public static final int CHUNK_BYTES = 1024;

    private static final int PERIOD_CHUNKS = 251; // prime: no alignment with powers of two
    private static final byte[] TEMPLATE = template();
    private static final Map<Long, Long> EXPECTED_CRC = new ConcurrentHashMap<>();
    /** Reused: a fresh direct buffer per check would inflate the next invocation's direct-memory peak. */
    private static final ThreadLocal<ByteBuffer> VERIFY_BUFFER =
            ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(1024 * 1024));

    private Payload() {}

    private static byte[] template() {
        byte[] bytes = new byte[PERIOD_CHUNKS + CHUNK_BYTES];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 7 + 13);
        }
        return bytes;
    }

    /** A fresh heap buffer holding chunk {@code index}, ready to read. */
    public static ByteBuffer freshChunk(long index) {
        ByteBuffer chunk = ByteBuffer.allocate(CHUNK_BYTES);
        chunk.put(TEMPLATE, (int) (index % PERIOD_CHUNKS), CHUNK_BYTES);
        return chunk.flip();
    }

    /** The byte expected at {@code offset} of any benchmark file. */
    public static byte byteAt(long offset) {
        return TEMPLATE[(int) ((offset / CHUNK_BYTES) % PERIOD_CHUNKS) + (int) (offset % CHUNK_BYTES)];
    }

    public static long chunks(long sizeBytes) {
        return sizeBytes / CHUNK_BYTES;
    }

    /** Writes a benchmark file of {@code sizeBytes} with plain gathering writes. */
    public static void createFile(Path path, long sizeBytes) throws IOException {
        try (FileChannel channel = FileChannel.open(
                path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            writeGathering(channel, chunks(sizeBytes), 256);
        }
    }

    /** Writes {@code chunks} fresh chunks to {@code channel}, up to {@code batchChunks} per gathering write. */
    public static void writeGathering(FileChannel channel, long chunks, int batchChunks) throws IOException {
        ByteBuffer[] batch = new ByteBuffer[batchChunks];
        for (long next = 0; next < chunks; ) {
            int count = (int) Math.min(batchChunks, chunks - next);
            for (int i = 0; i < count; i++) {
                batch[i] = freshChunk(next + i);
            }
            for (int first = 0; first < count; ) {
                channel.write(batch, first, count - first);
                while (first < count && !batch[first].hasRemaining()) {
                    first++;
                }
            }
            next += count;
        }
    }

    /** The CRC32C of a correct file of {@code sizeBytes}. */
    public static long expectedCrc(long sizeBytes) {
        return EXPECTED_CRC.computeIfAbsent(sizeBytes, size -> {
            CRC32C crc = new CRC32C();
            for (long chunk = 0; chunk < chunks(size); chunk++) {
                crc.update(TEMPLATE, (int) (chunk % PERIOD_CHUNKS), CHUNK_BYTES);
            }
            return crc.getValue();
        });
    }

    /** {@code null} if {@code path} is exactly a correct benchmark file of {@code sizeBytes}, else what is wrong. */
    public static String verify(Path path, long sizeBytes) throws IOException {
        if (!Files.exists(path)) {
            return path.getFileName() + " was not created";
        }
        long size = Files.size(path);
        if (size != sizeBytes) {
            return path.getFileName() + " has " + size + " bytes, expected " + sizeBytes;
        }
        CRC32C crc = new CRC32C();
        ByteBuffer buffer = VERIFY_BUFFER.get().clear();
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            while (channel.read(buffer) >= 0) {
                buffer.flip();
                crc.update(buffer);
                buffer.clear();
            }
        }
        if (crc.getValue() != expectedCrc(sizeBytes)) {
            return path.getFileName() + " has the right size but wrong content (CRC32C "
                    + Long.toHexString(crc.getValue()) + ", expected "
                    + Long.toHexString(expectedCrc(sizeBytes)) + ")";
        }
        return null;
    }
}
