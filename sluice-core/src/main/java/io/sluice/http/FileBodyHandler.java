package io.sluice.http;

import io.sluice.ReactiveFile;
import io.sluice.WriteOptions;
import io.sluice.internal.write.BufferFlattener;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A JDK {@code HttpClient} body handler that saves a successful (2xx) response body to a file
 * through sluice's writer: {@code client.send(request, FileBodyHandler.to(path, options))}.
 *
 * <p>The client publishes {@code List<ByteBuffer>}; an internal flattener turns that into the
 * {@code Flow.Publisher<ByteBuffer>} that {@link ReactiveFile#write(Flow.Publisher, WriteOptions)}
 * takes, translating the writer's demand in buffers into requests for one list at a time.
 *
 * <p>Example: {@code HttpTransfers}
 * (sluice-examples/src/main/java/io/sluice/examples/HttpTransfers.java), an upload from and a
 * download to a file, tested against a Jetty 12 server on loopback with the bytes checked on both
 * ends:
 * <pre>{@code
 * public static CompletableFuture<HttpResponse<Long>> download(HttpClient client, URI source, Path file) {
 *     HttpRequest request = HttpRequest.newBuilder(source).GET().build();
 *     return client.sendAsync(request, FileBodyHandler.to(file, WriteOptions.defaults()));
 * }
 * }</pre>
 *
 * <p><b>Threading:</b> the client calls the handler and the body subscriber on its own threads; the
 * file is opened, written and closed on {@link io.sluice.IoExecutors#files()} (or the options'
 * executor). The handler is immutable and may be reused for many requests.
 *
 * <p><b>Backpressure:</b> the client is asked for the next list only when the writer wants more
 * buffers and none are left, so memory stays within the writer's window plus one list. A buffer
 * passed to {@code onNext} belongs to the writer until the body's stage completes: do not change
 * or reuse it before then, or the changed bytes may be written. The JDK client does not: it no
 * longer uses a list or buffer once it has passed it on.
 *
 * <p><b>Resources:</b> the file is closed when the body ends, fails, or the write fails; a failed
 * write cancels the response body, which lets the client close the connection.
 *
 * <p><b>Errors:</b> a non-2xx status fails the body with an {@link IOException} naming it (nothing
 * is written); I/O errors on either side fail the body stage with the original exception.
 */
public final class FileBodyHandler implements HttpResponse.BodyHandler<Long> {

    private final Path target;
    private final WriteOptions options;

    private FileBodyHandler(Path target, WriteOptions options) {
        this.target = target;
        this.options = options;
    }

    /**
     * A handler saving the body to {@code target}, written as {@code options} say.
     *
     * @param target the file to write
     * @param options open mode, demand and byte cap of the write
     * @return the handler; its body is the number of bytes written
     */
    public static FileBodyHandler to(Path target, WriteOptions options) {
        return new FileBodyHandler(
                Objects.requireNonNull(target, "target"), Objects.requireNonNull(options, "options"));
    }

    @Override
    public HttpResponse.BodySubscriber<Long> apply(HttpResponse.ResponseInfo info) {
        if (info.statusCode() / 100 != 2) {
            return HttpResponse.BodySubscribers.mapping(HttpResponse.BodySubscribers.discarding(), ignored -> {
                throw new java.io.UncheckedIOException(
                        new IOException("HTTP " + info.statusCode() + ": not saving the body to " + target));
            });
        }
        return new FileBodySubscriber(target, options);
    }

    /** Subscribes the flattener to the client and the file writer to the flattener. */
    private static final class FileBodySubscriber implements HttpResponse.BodySubscriber<Long> {
        private final BufferFlattener flattener = new BufferFlattener();
        private final CompletionStage<Long> written;

        FileBodySubscriber(Path target, WriteOptions options) {
            this.written = ReactiveFile.of(target).write(flattener, options);
        }

        @Override
        public CompletionStage<Long> getBody() {
            return written;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            flattener.onSubscribe(subscription);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            flattener.onNext(buffers);
        }

        @Override
        public void onError(Throwable error) {
            flattener.onError(error);
        }

        @Override
        public void onComplete() {
            flattener.onComplete();
        }
    }
}
