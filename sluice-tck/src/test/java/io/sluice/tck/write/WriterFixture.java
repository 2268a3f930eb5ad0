package io.sluice.tck.write;

import io.sluice.IoExecutors;
import io.sluice.WriteMode;
import io.sluice.WriteOptions;
import io.sluice.internal.AtomicFileSink;
import io.sluice.internal.ChannelSink;
import io.sluice.internal.ChannelWriteSubscriber;
import io.sluice.internal.FileSink;
import io.sluice.internal.StreamSink;
import io.sluice.tck.support.CountingChannel;
import io.sluice.tck.support.CountingOutputStream;
import io.sluice.tck.support.OpenFiles;
import io.sluice.tck.support.Tck;
import io.sluice.tck.support.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Makes the writers one {@link WriterCase} tests, as the public entry points make them (same sink,
 * same default executor), and checks after every test that each one closed its target exactly
 * once (W6) once it ended, whether the test completed it or left it running (then it is cancelled
 * here, as a user cancels: through its stage). An atomic-replace writer must also leave nothing
 * but its targets in the directory: its temporary file is renamed over the target or deleted (A3).
 */
public final class WriterFixture implements AutoCloseable {

    /** The only names a file writer's directory may hold once its writes ended. */
    private static final Pattern TARGET_NAME = Pattern.compile("written-[0-9]+\\.bin");

    private final WriterCase writerCase;
    private final TempDir dir;
    private final AtomicInteger fileNumber = new AtomicInteger();
    private final List<Tracked> writers = new CopyOnWriteArrayList<>();

    public WriterFixture(WriterCase writerCase) {
        this.writerCase = writerCase;
        switch (writerCase.target()) {
            case FILE:
                this.dir = new TempDir("file-write");
                break;
            case ATOMIC_FILE:
                this.dir = TempDir.inMemory("atomic-write");          // it forces: keep fsync off the disk
                break;
            default:
                this.dir = null;
        }
    }

    public ChannelWriteSubscriber newWriter() {
        WriteOptions options = WriteOptions.defaults().withDemand(writerCase.demand());
        ChannelWriteSubscriber writer;
        switch (writerCase.target()) {
            case FILE: {
                Path file = dir.resolve("written-" + fileNumber.incrementAndGet() + ".bin");
                writer = new ChannelWriteSubscriber(new FileSink(file, WriteMode.TRUNCATE), options,
                        IoExecutors.files(), file.toString());
                writers.add(new Tracked(writer, null, () -> 1, () -> sizeOf(file)));
                break;
            }
            case ATOMIC_FILE: {
                // as ReactiveFile.write builds it with withAtomicReplace() (which also turns sync on)
                Path file = dir.resolve("written-" + fileNumber.incrementAndGet() + ".bin");
                WriteOptions atomic = options.withAtomicReplace();
                writer = new ChannelWriteSubscriber(new AtomicFileSink(file, atomic.mode()), atomic,
                        IoExecutors.files(), file.toString());
                writers.add(new Tracked(writer, null, () -> 1, () -> sizeOf(file)));
                break;
            }
            case CHANNEL: {
                CountingChannel channel = new CountingChannel();
                writer = new ChannelWriteSubscriber(new ChannelSink(channel), options,
                        IoExecutors.blocking(), "counting channel");
                writers.add(new Tracked(writer, channel.closedLatch(), channel::closeCount, channel::bytes));
                break;
            }
            case STREAM: {
                CountingOutputStream stream = new CountingOutputStream();
                writer = new ChannelWriteSubscriber(new StreamSink(stream), options,
                        IoExecutors.blocking(), "counting stream");
                writers.add(new Tracked(writer, stream.closedLatch(), stream::closeCount, stream::bytes));
                break;
            }
            default:
                throw new AssertionError(writerCase.target());
        }
        return writer;
    }

    /** The bytes that reached {@code writer}'s target so far. */
    public long targetBytes(ChannelWriteSubscriber writer) {
        for (Tracked tracked : writers) {
            if (tracked.writer == writer) {
                return tracked.bytes.getAsLong();
            }
        }
        throw new IllegalArgumentException("not a writer of this fixture, or already ended: " + writer);
    }

    private static long sizeOf(Path file) {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Cancels every write still running, then checks W6: each target closed, exactly once.
     *
     * @throws AssertionError naming the first target left open or closed twice
     */
    public void endAllAndCheckClosed() throws InterruptedException {
        List<Tracked> ended = new ArrayList<>(writers);
        writers.removeAll(ended);
        for (Tracked tracked : ended) {
            if (!tracked.writer.result().isDone()) {
                tracked.writer.result().cancel(true);
            }
        }
        for (Tracked tracked : ended) {
            if (tracked.closed != null) {
                if (!tracked.closed.await(Tck.TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)) {
                    throw new AssertionError("W6: " + writerCase + " did not close its target within "
                            + Tck.TIMEOUT_MILLIS + " ms after its stage ended");
                }
                int closes = tracked.closeCount.getAsInt();
                if (closes != 1) {
                    throw new AssertionError("W6: " + writerCase + " closed its target " + closes + " times");
                }
            }
        }
        if (dir != null && OpenFiles.supported()) {
            awaitNoOpenFiles();
        }
        if (writerCase.target() == WriterCase.Target.ATOMIC_FILE) {
            awaitNoTemporaryFiles();
        }
    }

    /**
     * A3: an atomic write's temporary file is renamed over its target or deleted, by the drain,
     * possibly after the stage was cancelled: poll the directory, within the timeout. Any name
     * but a target's counts, so the check does not depend on how the temporary files are named.
     */
    private void awaitNoTemporaryFiles() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Tck.TIMEOUT_MILLIS);
        List<String> left = strayFiles();
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            left = strayFiles();
        }
        if (!left.isEmpty()) {
            throw new AssertionError("A3: " + writerCase + " left temporary files behind in " + dir.root()
                    + ": " + left);
        }
    }

    private List<String> strayFiles() {
        try (Stream<Path> entries = Files.list(dir.root())) {
            return entries.map(entry -> entry.getFileName().toString())
                    .filter(name -> !TARGET_NAME.matcher(name).matches())
                    .collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir.root(), e);
        }
    }

    /** FileSink has no close hook to wait on: poll the process's open files, within the timeout. */
    private void awaitNoOpenFiles() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Tck.TIMEOUT_MILLIS);
        List<Path> open = OpenFiles.under(dir.root());
        while (!open.isEmpty() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            open = OpenFiles.under(dir.root());
        }
        if (!open.isEmpty()) {
            throw new AssertionError("W6: " + writerCase + " left files open after its stage ended: " + open);
        }
    }

    @Override
    public void close() {
        if (dir != null) {
            dir.close();
        }
    }

    private static final class Tracked {
        final ChannelWriteSubscriber writer;
        final CountDownLatch closed;          // null: a file (checked through /proc)
        final IntSupplier closeCount;
        final LongSupplier bytes;

        Tracked(ChannelWriteSubscriber writer, CountDownLatch closed, IntSupplier closeCount, LongSupplier bytes) {
            this.writer = writer;
            this.closed = closed;
            this.closeCount = closeCount;
            this.bytes = bytes;
        }
    }
}
