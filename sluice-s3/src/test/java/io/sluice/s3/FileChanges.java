package io.sluice.s3;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** What another program does to a file while it is uploaded: the tests' changes, run from an upload's hooks. */
final class FileChanges {

    private FileChanges() {}

    /** Appends {@code bytes} zero bytes. */
    static void append(Path file, int bytes) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.APPEND)) {
            channel.write(ByteBuffer.wrap(new byte[bytes]));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Cuts the file to {@code size} bytes. */
    static void truncate(Path file, long size) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(size);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
