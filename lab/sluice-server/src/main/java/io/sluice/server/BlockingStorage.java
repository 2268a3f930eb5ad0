package io.sluice.server;

import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/**
 * Lanes A and B: thread-per-request. The calling thread (platform or virtual) blocks on the delay,
 * the disk and the socket; the answer is complete when a method returns.
 *
 * <p>Uploads go to a hidden temporary in the same directory and are renamed over the target with
 * {@code ATOMIC_MOVE} only when the whole body arrived, so a failed or cut upload leaves the old
 * content, and two concurrent uploads leave one complete body (the last rename wins). The
 * temporary is forced before the rename and the directory after it, as lane C's atomic writer
 * does: every lane pays the same {@code fsync}s, so durability is not a difference between them.
 */
record BlockingStorage(long maxUploadBytes, UploadEvents events) implements Storage {

    private static final int BLOCK_BYTES = 64 * 1024;

    @Override
    public void get(Request request, Response response, Callback callback, String name, Path file, long delayMillis) {
        try {
            sleep(delayMillis);
            FileChannel channel;
            try {
                channel = FileChannel.open(file, StandardOpenOption.READ);
            } catch (IOException e) {
                Replies.cannotOpen(response, callback, file, e); // 404 or 500
                return;
            }
            try (channel) {
                // As in lane C, the length comes from the channel the bytes are read from.
                ByteRange range = Replies.startDownload(request, response, callback, channel.size());
                if (range == null) {
                    return;
                }
                try (OutputStream body = Content.Sink.asOutputStream(response)) {
                    byte[] block = new byte[BLOCK_BYTES];
                    ByteBuffer buffer = ByteBuffer.wrap(block);
                    long position = range.offset();
                    long remaining = range.length();
                    while (remaining > 0) {
                        buffer.clear().limit((int) Math.min(BLOCK_BYTES, remaining));
                        int read = channel.read(buffer, position);
                        if (read < 0) {
                            throw new IOException("file shrank while being sent: " + file.getFileName());
                        }
                        body.write(block, 0, read);
                        position += read;
                        remaining -= read;
                    }
                }
            }
            callback.succeeded();
        } catch (IOException | RuntimeException e) {
            callback.failed(e);
        }
    }

    @Override
    public void put(Request request, Response response, Callback callback, String name, Path file, long delayMillis) {
        Replies.checkDeclaredLength(request, maxUploadBytes); // refused before it starts: no event
        Path temporary = file.resolveSibling(".upload-" + UUID.randomUUID() + ".tmp");
        boolean renamed = false;
        try {
            sleep(delayMillis);
            Sha256 sha256 = new Sha256();
            long received = 0;
            try (InputStream body = Content.Source.asInputStream(request);
                    FileChannel out =
                            FileChannel.open(temporary, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                byte[] block = new byte[BLOCK_BYTES];
                for (int read = body.read(block); read >= 0; read = body.read(block)) {
                    received += read;
                    if (received > maxUploadBytes) {
                        throw HttpProblem.tooLarge(maxUploadBytes);
                    }
                    sha256.update(block, 0, read);
                    ByteBuffer buffer = ByteBuffer.wrap(block, 0, read);
                    while (buffer.hasRemaining()) {
                        out.write(buffer);
                    }
                }
                out.force(true);
            }
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            renamed = true;
            forceDirectory(file.getParent());
            String hex = sha256.hex();
            events.stored(name, received, hex);
            Replies.stored(response, callback, name, received, hex);
        } catch (IOException | RuntimeException e) { // an HttpProblem (413) is thrown before the rename
            if (!renamed) {
                deleteQuietly(temporary);
                events.failed(name, e);
            }
            Replies.failure(response, callback, e);
        }
    }

    @Override
    public void delete(
            Request request, Response response, Callback callback, String name, Path file, long delayMillis) {
        try {
            sleep(delayMillis);
            Replies.deleted(response, callback, name, Files.deleteIfExists(file));
        } catch (IOException | RuntimeException e) {
            callback.failed(e);
        }
    }

    /** Makes the rename durable, as lane C's atomic writer does (and, like it, tolerates a refusal). */
    private static void forceDirectory(Path directory) {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException | UnsupportedOperationException refused) {
            // the rename has happened; its durability then rests on the file system
        }
    }

    private static void sleep(long millis) throws InterruptedIOException {
        if (millis <= 0) {
            return;
        }
        try {
            Thread.sleep(millis); // the simulated slow storage: lanes A and B hold their thread here
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted during the simulated storage delay");
        }
    }

    private static void deleteQuietly(Path temporary) {
        try {
            Files.deleteIfExists(temporary);
        } catch (IOException ignored) {
            // a leftover .upload-*.tmp is hidden from clients (names may not start with '.')
        }
    }
}
