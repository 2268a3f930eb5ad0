package io.sluice.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StreamPipesTest {

    private static final int BYTES = 3 * 1024 * 1024 + 7;

    @TempDir
    Path dir;

    @Test
    void pipesAnInputStreamIntoAFileAndClosesTheStream() throws Exception {
        byte[] source = TestData.bytes(9, BYTES);
        ClosingInputStream in = new ClosingInputStream(new ByteArrayInputStream(source));
        Path file = dir.resolve("from-stream.bin");

        long written =
                StreamPipes.inputStreamToFile(in, file).toCompletableFuture().get(30, TimeUnit.SECONDS);

        assertEquals(BYTES, written);
        assertArrayEquals(source, Files.readAllBytes(file));
        assertTrue(in.closed, "the library closes the input stream at its end");
    }

    @Test
    void pipesAFileIntoAnOutputStreamAndFlushesAndClosesIt() throws Exception {
        Path file = TestData.file(dir.resolve("to-stream.bin"), 10, BYTES);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        ClosingOutputStream out = new ClosingOutputStream(sink);

        long written =
                StreamPipes.fileToOutputStream(file, out).toCompletableFuture().get(30, TimeUnit.SECONDS);

        assertEquals(BYTES, written);
        assertArrayEquals(Files.readAllBytes(file), sink.toByteArray());
        assertTrue(out.closed, "the library closes the output stream at the end");
    }

    @Test
    void gzipsAFileThroughAnOutputStreamAndGunzipsItBackThroughAnInputStream() throws Exception {
        Path original = TestData.file(dir.resolve("original.bin"), 11, BYTES);
        Path compressed = dir.resolve("original.bin.gz");
        Path restored = dir.resolve("restored.bin");

        StreamPipes.fileToOutputStream(original, new GZIPOutputStream(Files.newOutputStream(compressed)))
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        long restoredBytes = StreamPipes.inputStreamToFile(
                        new GZIPInputStream(Files.newInputStream(compressed)), restored)
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);

        assertEquals(BYTES, restoredBytes);
        assertArrayEquals(TestData.sha256(original), TestData.sha256(restored));
    }

    /** Records close(): the examples promise the library closes the stream. */
    private static final class ClosingInputStream extends FilterInputStream {
        volatile boolean closed;

        ClosingInputStream(InputStream in) {
            super(in);
        }

        @Override
        public void close() throws IOException {
            closed = true;
            super.close();
        }
    }

    private static final class ClosingOutputStream extends FilterOutputStream {
        volatile boolean closed;

        ClosingOutputStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            out.write(bytes, offset, length); // FilterOutputStream would write byte by byte
        }

        @Override
        public void close() throws IOException {
            closed = true;
            super.close();
        }
    }
}
