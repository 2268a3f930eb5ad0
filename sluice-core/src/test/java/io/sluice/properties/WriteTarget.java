package io.sluice.properties;

import io.sluice.ByteChannels;
import io.sluice.ByteStreams;
import io.sluice.ReactiveFile;
import io.sluice.WriteMode;
import io.sluice.WriteOptions;
import io.sluice.internal.write.AtomicTemporaries;
import io.sluice.testkit.OpenFiles;
import org.reactivestreams.Publisher;

import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.Pipe;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One target of a write through the public API, in its own temporary directory: a file written
 * with {@code ReactiveFile} (plain, sync, atomic replace over old content, appending to old
 * content), a {@code FileChannel} or a pipe (drained by a reader thread) written with
 * {@code ByteChannels}, or a {@code FileOutputStream} written with {@code ByteStreams}.
 */
final class WriteTarget implements AutoCloseable {

    enum Kind {
        FILE,
        FILE_SYNC,
        FILE_ATOMIC,
        FILE_APPEND,
        FILE_CHANNEL,
        PIPE,
        STREAM
    }

    final Kind kind;
    final Path directory;
    /** The file written, or {@code null} for a pipe. */
    final Path path;
    /** The file's content before the write (old content that atomic replace keeps or append extends). */
    final byte[] before;

    private FileChannel channel; // FILE_CHANNEL: handed to the library
    private Pipe pipe; // PIPE
    private final ByteArrayOutputStream piped = new ByteArrayOutputStream(); // the reader thread, then the test
    private final CountDownLatch pipeEnded = new CountDownLatch(1); // the reader saw end of stream

    private WriteTarget(Kind kind, long seed) throws IOException {
        this.kind = kind;
        this.directory = Files.createTempDirectory("sluice-props");
        this.path = kind == Kind.PIPE ? null : directory.resolve("target");
        if (kind == Kind.FILE_ATOMIC || kind == Kind.FILE_APPEND) {
            Random random = new Random(seed);
            before = new byte[random.nextInt(100_000)];
            random.nextBytes(before);
            Files.write(path, before);
        } else {
            before = new byte[0];
        }
    }

    static WriteTarget create(Kind kind, long seed) throws IOException {
        return new WriteTarget(kind, seed);
    }

    /** Starts the write of {@code upstream} with {@code options} (to which the target adds its own). */
    CompletionStage<Long> write(Publisher<ByteBuffer> upstream, WriteOptions options) throws IOException {
        switch (kind) {
            case FILE:
                return ReactiveFile.of(path).write(upstream, options);
            case FILE_SYNC:
                return ReactiveFile.of(path).write(upstream, options.withSync());
            case FILE_ATOMIC:
                return ReactiveFile.of(path).write(upstream, options.withAtomicReplace());
            case FILE_APPEND:
                return ReactiveFile.of(path).write(upstream, options.withMode(WriteMode.APPEND));
            case FILE_CHANNEL:
                channel = FileChannel.open(
                        path,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING);
                return ByteChannels.write(channel, upstream, options);
            case PIPE:
                pipe = Pipe.open();
                Thread reader = new Thread(this::drainPipe, "pipe-reader");
                reader.setDaemon(true);
                reader.start();
                return ByteChannels.write(pipe.sink(), upstream, options);
            case STREAM:
                return ByteStreams.write(new FileOutputStream(path.toFile()), upstream, options);
            default:
                throw new AssertionError(kind);
        }
    }

    private void drainPipe() {
        ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
        try (Pipe.SourceChannel source = pipe.source()) {
            while (source.read(buffer.clear()) >= 0) {
                synchronized (piped) {
                    piped.write(buffer.array(), 0, buffer.position());
                }
            }
            pipeEnded.countDown();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The content a completed write leaves, given the bytes written. */
    byte[] expected(byte[] written) {
        if (kind != Kind.FILE_APPEND) {
            return written;
        }
        byte[] all = new byte[before.length + written.length];
        System.arraycopy(before, 0, all, 0, before.length);
        System.arraycopy(written, 0, all, before.length, written.length);
        return all;
    }

    /**
     * What is still open of the target now: descriptors of files in its directory, and the channel handed
     * to the library if it is still open. Empty when everything is closed.
     */
    List<String> openNow() {
        List<String> open = new ArrayList<>(OpenFiles.inside(directory));
        if (channel != null && channel.isOpen()) {
            open.add("the FileChannel given to ByteChannels.write");
        }
        if (pipe != null && pipe.sink().isOpen()) {
            open.add("the Pipe.SinkChannel given to ByteChannels.write");
        }
        return open;
    }

    /** The target file's size now, -1 if it does not exist; -1 for a pipe. */
    long sizeNow() {
        if (path == null) {
            return -1;
        }
        try {
            return Files.size(path);
        } catch (NoSuchFileException missing) {
            return -1;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The file's bytes (empty if it does not exist), or all a pipe carried once its sink was closed. */
    byte[] contents() throws IOException, InterruptedException {
        if (path == null) {
            assertTrue(pipeEnded.await(30, TimeUnit.SECONDS), "the pipe's reader never saw the end of the stream");
            synchronized (piped) {
                return piped.toByteArray();
            }
        }
        try {
            return Files.readAllBytes(path);
        } catch (NoSuchFileException missing) {
            return new byte[0];
        }
    }

    /** Names in the directory shaped like atomic-write temporaries. */
    List<String> temporaries() throws IOException {
        List<String> names = new ArrayList<>();
        try (Stream<Path> entries = Files.list(directory)) {
            entries.map(path -> path.getFileName().toString())
                    .filter(AtomicTemporaries::isTemporaryName)
                    .forEach(names::add);
        }
        return names;
    }

    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close();
        }
        if (pipe != null) {
            pipe.sink().close();
            pipe.source().close();
        }
        try (Stream<Path> entries = Files.walk(directory)) {
            for (Path entry : (Iterable<Path>) entries.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(entry);
            }
        }
    }
}
