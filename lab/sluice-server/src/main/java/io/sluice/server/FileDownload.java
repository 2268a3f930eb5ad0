package io.sluice.server;

import io.sluice.ByteChannels;
import io.sluice.ChunkPool;
import io.sluice.ReadOptions;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Lane C's download, started off Jetty's threads: the file is opened and sized on the file
 * executor, and the same open channel is then read by our publisher into a
 * {@link ResponseBodySubscriber}.
 *
 * <p><b>Threads.</b> {@link #start} runs on a Jetty thread (selector or pool, the handler is
 * {@code NON_BLOCKING}) or on the delay timer, and only hands this task to the executor: no
 * filesystem call happens there. {@link #run} runs once, on an executor thread; the record's
 * components are final and published to it by {@link Executor#execute}. After {@code subscribe} the channel
 * belongs to the publisher, which closes it after the last byte, on error and on cancel; before
 * that, every path out of {@link #run} closes it here.
 *
 * <p><b>One file, one size.</b> {@code Content-Length} and the range come from the opened
 * channel's size, and the bytes from the same channel, so an atomic replace of the file between
 * the two cannot make the length disagree with the body (a separate {@code Files.size} before the
 * open could). It also costs one {@code open} and one {@code fstat} instead of several
 * {@code stat} calls by name.
 *
 * <p><b>Lent chunks.</b> The file is read into direct buffers lent from the server's
 * {@link ChunkPool} ({@link FileServer#downloadChunks()}), without a copy, and
 * {@link ResponseBodySubscriber} gives each back once Jetty has written it: in steady state a
 * download allocates no chunk memory (only each loan's small view object), and the socket write
 * needs no copy into a temporary direct buffer either.
 */
record FileDownload(
        Request request,
        Response response,
        Callback callback,
        Path file,
        boolean bounded,
        Executor files,
        ChunkPool chunks)
        implements Runnable {

    /**
     * Hands the download to {@code files}; never blocks and never touches the file. A rejected
     * task fails the response (Jetty answers 500 while nothing is committed).
     */
    static void start(
            Request request,
            Response response,
            Callback callback,
            Path file,
            boolean bounded,
            Executor files,
            ChunkPool chunks) {
        try {
            files.execute(new FileDownload(request, response, callback, file, bounded, files, chunks));
        } catch (RejectedExecutionException e) {
            callback.failed(e);
        }
    }

    @Override
    public void run() {
        FileChannel channel;
        try {
            channel = FileChannel.open(file, StandardOpenOption.READ);
        } catch (IOException e) {
            Replies.cannotOpen(response, callback, file, e); // 404 or 500, nothing to close
            return;
        } catch (RuntimeException e) {
            callback.failed(e);
            return;
        }
        ByteRange range;
        try {
            long size = channel.size();
            if (ByteRange.of(request.getHeaders().get(HttpHeader.RANGE), size) == null) {
                channel.close(); // closed before the 416 can reach the client
            }
            range = Replies.startDownload(request, response, callback, size);
            if (range == null) {
                return;
            }
            channel.position(range.offset());
        } catch (IOException | RuntimeException e) {
            closeAfterFailure(channel, e);
            callback.failed(e); // headers may be set: let Jetty reset and answer 500
            return;
        }
        // Chunks no larger than the range: a 16 KiB file is one 16 KiB chunk (of a pooled 64 KiB buffer).
        int chunkBytes = (int) Math.max(1, Math.min(chunks.chunkSizeBytes(), range.length()));
        FirstPassHere executor = new FirstPassHere(files);
        ReadOptions options = ReadOptions.range(0, range.length())
                .withLentChunks(chunks)
                .withChunkSize(chunkBytes)
                .withExecutor(executor);
        try {
            ByteChannels.publisher(channel, options) // from here on the publisher owns and closes the channel
                    .subscribe(
                            bounded
                                    ? ResponseBodySubscriber.bounded(response, callback)
                                    : ResponseBodySubscriber.unbounded(response, callback));
        } finally {
            executor.leave();
        }
    }

    /**
     * The publisher's executor. Its first task (the read pass that {@code subscribe} schedules) runs
     * at once on the thread that opened the file, which is already a file-executor thread: that
     * saves a second trip through the executor's queue per download. Every later task (a pass
     * signalled by {@code request(n)} from a Jetty thread after an asynchronous write, a yield after
     * 1 MiB, a cancel) goes to {@code files}, so a blocking read never runs on a Jetty thread and a
     * pass never nests inside another.
     *
     * <p>{@code inline} is the opening thread until its one inline task has started or
     * {@link #run} has left {@code subscribe}; then null. It is volatile because Jetty threads may
     * call {@link #execute} later and must see null (or a thread that is not theirs).
     */
    private static final class FirstPassHere implements Executor {

        private final Executor files;
        private volatile Thread inline = Thread.currentThread();

        FirstPassHere(Executor files) {
            this.files = files;
        }

        @Override
        public void execute(Runnable task) {
            if (inline == Thread.currentThread()) {
                inline = null; // only once: a yielded pass is resubmitted to files
                task.run();
            } else {
                files.execute(task);
            }
        }

        void leave() {
            inline = null;
        }
    }

    private static void closeAfterFailure(FileChannel channel, Exception failure) {
        try {
            channel.close();
        } catch (IOException closeFailure) {
            failure.addSuppressed(closeFailure);
        }
    }
}
