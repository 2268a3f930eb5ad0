package io.sluice.server;

import io.sluice.ChunkPool;
import io.sluice.ReactiveFile;
import io.sluice.WriteOptions;
import io.sluice.demand.Demand;
import io.sluice.demand.DemandStrategy;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Lanes C and C-unbounded: no request holds a thread while it waits. Downloads subscribe Jetty's
 * response to our file publisher; uploads subscribe our atomic file writer to the request body;
 * the simulated storage delay is a timer task. With {@code bounded} false (C-unbounded) uploads
 * demand everything at once and downloads queue the whole file (see
 * {@link ResponseBodySubscriber}).
 */
final class ReactiveStorage implements Storage {

    private static final int UPLOAD_THREADS = 16;

    private final boolean bounded;
    private final long maxUploadBytes;
    private final UploadEvents events;
    /** Every filesystem call of a download (open, size, read, close) runs here, never on Jetty's threads. */
    private final Executor files;
    /** Downloads read into chunks lent from here ({@link FileServer#downloadChunks()}). */
    private final ChunkPool downloadChunks;
    /**
     * Uploads are written (and forced, and renamed) here, apart from downloads: a write or an
     * {@code fsync} that a busy device holds for a long time must not hold the threads that serve
     * downloads, as lane B's thread per request never shares them either. 16 daemon threads, idle
     * ones end after 60 s.
     */
    private final ThreadPoolExecutor uploads = new ThreadPoolExecutor(
            UPLOAD_THREADS,
            UPLOAD_THREADS,
            60,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            DelayTimer.daemonThreads("sluice-server-upload-"));

    private final DelayTimer timer = new DelayTimer();

    ReactiveStorage(
            boolean bounded, long maxUploadBytes, UploadEvents events, Executor files, ChunkPool downloadChunks) {
        uploads.allowCoreThreadTimeOut(true);
        this.bounded = bounded;
        this.files = files;
        this.downloadChunks = downloadChunks;
        this.maxUploadBytes = maxUploadBytes;
        this.events = events;
    }

    @Override
    public void get(Request request, Response response, Callback callback, String name, Path file, long delayMillis) {
        // Runs on a Jetty thread or the timer: only hands the open, size and read to the file executor.
        timer.after(
                delayMillis,
                callback,
                () -> FileDownload.start(request, response, callback, file, bounded, files, downloadChunks));
    }

    @Override
    public void put(Request request, Response response, Callback callback, String name, Path file, long delayMillis) {
        Replies.checkDeclaredLength(request, maxUploadBytes);
        timer.after(delayMillis, callback, () -> {
            Sha256 sha256 = new Sha256();
            RequestBodyPublisher body = new RequestBodyPublisher(request, maxUploadBytes, sha256);
            ReactiveFile.of(file)
                    .write(
                            body,
                            WriteOptions.defaults()
                                    .withAtomicReplace()
                                    .withDemand(demand())
                                    .withExecutor(uploads))
                    .whenComplete((bytes, failure) -> Replies.uploaded(
                            response, callback, events, name, sha256, failure == null ? bytes : 0, failure));
        });
    }

    @Override
    public void delete(
            Request request, Response response, Callback callback, String name, Path file, long delayMillis) {
        // The unlink is a blocking filesystem call too: it runs on the file executor, not on Jetty's threads.
        timer.after(
                delayMillis,
                callback,
                () -> files.execute(() -> {
                    try {
                        Replies.deleted(response, callback, name, Files.deleteIfExists(file));
                    } catch (IOException | RuntimeException e) {
                        callback.failed(e);
                    }
                }));
    }

    private DemandStrategy demand() {
        return bounded ? Demand.adaptive() : Demand.unbounded();
    }

    @Override
    public void close() {
        timer.close();
        uploads.shutdown(); // uploads in progress end; nothing new is accepted
    }
}
