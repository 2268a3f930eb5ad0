package io.sluice.tck.write;

import io.sluice.ByteChannels;
import io.sluice.ByteStreams;
import io.sluice.ReactiveFile;
import io.sluice.WriteOptions;
import io.sluice.tck.support.Tck;
import io.sluice.tck.support.TempDir;
import io.sluice.testkit.CountingChannel;
import io.sluice.testkit.OpenFiles;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
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
 * Makes the writers one {@link WriterCase} tests through the public entry points users call
 * ({@code ReactiveFile.write}, {@code ByteChannels.write}, {@code ByteStreams.write}: so the sink,
 * executor, sync finisher and atomic commit are theirs), and checks after every test that each
 * one closed its target exactly once (W6) once it ended, whether the test completed it or left it
 * running (then it is cancelled here, as a user cancels: through its stage). An atomic-replace writer must also leave nothing
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
            case SYNC_FILE:
            case ATOMIC_FILE:
                this.dir = TempDir.inMemory("synced-write"); // it forces: keep fsync off the disk
                break;
            default:
                this.dir = null;
        }
    }

    /**
     * A new write through its public entry point ({@code ReactiveFile.write},
     * {@code ByteChannels.write}, {@code ByteStreams.write}, Reactive Streams overload), its
     * subscriber captured from the publisher passed in: the subscriber an upstream really gets.
     */
    public Write newWriter() {
        return start(false);
    }

    /** As {@link #newWriter()}, through the entry point's {@code Flow.Publisher} overload. */
    public Write newFlowWriter() {
        return start(true);
    }

    private Write start(boolean flow) {
        WriteOptions options = WriteOptions.defaults().withDemand(writerCase.demand());
        Capture capture = new Capture();
        CompletionStage<Long> stage;
        switch (writerCase.target()) {
            case FILE:
            case SYNC_FILE:
            case ATOMIC_FILE: {
                Path file = dir.resolve("written-" + fileNumber.incrementAndGet() + ".bin");
                if (writerCase.target() == WriterCase.Target.SYNC_FILE) {
                    options = options.withSync();
                } else if (writerCase.target() == WriterCase.Target.ATOMIC_FILE) {
                    options = options.withAtomicReplace();
                }
                ReactiveFile target = ReactiveFile.of(file);
                stage = flow ? target.write(capture.flow(), options) : target.write(capture, options);
                writers.add(new Tracked(capture.write(stage), null, () -> 1, () -> sizeOf(file)));
                break;
            }
            case CHANNEL: {
                CountingChannel channel = new CountingChannel();
                stage = flow
                        ? ByteChannels.write(channel, capture.flow(), options)
                        : ByteChannels.write(channel, capture, options);
                writers.add(
                        new Tracked(capture.write(stage), channel.closedLatch(), channel::closeCount, channel::bytes));
                break;
            }
            case STREAM: {
                CountingChannel channel = new CountingChannel(); // the stream's close() closes it
                OutputStream stream = Channels.newOutputStream(channel);
                stage = flow
                        ? ByteStreams.write(stream, capture.flow(), options)
                        : ByteStreams.write(stream, capture, options);
                writers.add(
                        new Tracked(capture.write(stage), channel.closedLatch(), channel::closeCount, channel::bytes));
                break;
            }
            default:
                throw new AssertionError(writerCase.target());
        }
        return writers.get(writers.size() - 1).write;
    }

    /** The bytes that reached {@code write}'s target so far. */
    public long targetBytes(Write write) {
        for (Tracked tracked : writers) {
            if (tracked.write == write) {
                return tracked.bytes.getAsLong();
            }
        }
        throw new IllegalArgumentException("not a write of this fixture, or already ended: " + write);
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
            if (!tracked.write.result().isDone()) {
                tracked.write.result().cancel(true);
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
            throw new AssertionError(
                    "A3: " + writerCase + " left temporary files behind in " + dir.root() + ": " + left);
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
        List<String> open = OpenFiles.under(dir.root());
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
        final Write write;
        final CountDownLatch closed; // null: a file (checked through /proc)
        final IntSupplier closeCount;
        final LongSupplier bytes;

        Tracked(Write write, CountDownLatch closed, IntSupplier closeCount, LongSupplier bytes) {
            this.write = write;
            this.closed = closed;
            this.closeCount = closeCount;
            this.bytes = bytes;
        }
    }
}
