package io.sluice.server;

import io.sluice.s3.ObjectReadOptions;
import io.sluice.s3.ReactiveObject;
import io.sluice.s3.UploadOptions;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Lane C over an S3-compatible bucket ({@code --storage s3://BUCKET}): a file is the object whose
 * key is its name, so servers sharing a bucket serve each other's uploads. Same handler, names,
 * limits and answers as the directory: uploads stream into {@link ReactiveObject#write} (a body
 * past the upload limit fails with 413 and leaves no object and no multipart upload), downloads
 * stream {@link ReactiveObject#readRange} into the response, one buffer in the socket and at most
 * one waiting ({@link ResponseBodySubscriber#owned}).
 *
 * <p><b>Threads.</b> No call blocks: each method starts an asynchronous S3 request on the caller's
 * thread (a Jetty thread, or the delay timer) and answers on the SDK's completion thread or, for a
 * download's body, on the threads that signal the read.
 *
 * <p><b>One object, one length.</b> {@code Content-Length} and the range come from a
 * {@code HeadObject}, the bytes from a ranged {@code GetObject} sent after it with the HEAD's ETag
 * as {@code If-Match}: an object replaced in between fails the GET (412) before a byte of the body
 * is written, and Jetty answers 500, never a body of two versions. A read that stalls past
 * {@link ObjectReadOptions#DEFAULT_IDLE_TIMEOUT} fails the response too.
 */
final class ObjectStorage implements Storage {

    private final S3AsyncClient client; // this storage's own: closed with it
    private final String bucket;
    private final long maxUploadBytes;
    private final UploadEvents events;
    private final DelayTimer timer = new DelayTimer();

    ObjectStorage(S3AsyncClient client, String bucket, long maxUploadBytes, UploadEvents events) {
        this.client = client;
        this.bucket = bucket;
        this.maxUploadBytes = maxUploadBytes;
        this.events = events;
    }

    @Override
    public void get(Request request, Response response, Callback callback, String name, Path file, long delayMillis) {
        timer.after(
                delayMillis,
                callback,
                () -> ifExists(name, response, callback, head -> {
                    ByteRange range = Replies.startDownload(request, response, callback, head.contentLength());
                    if (range == null) {
                        return;
                    }
                    if (range.length() == 0) {
                        response.write(true, BufferUtil.EMPTY_BUFFER, callback);
                        return;
                    }
                    ReactiveObject.of(client, bucket, name)
                            .readRange(
                                    range.offset(),
                                    range.length(),
                                    ObjectReadOptions.defaults().withIfMatch(head.eTag()))
                            .subscribe(ResponseBodySubscriber.owned(response, callback));
                }));
    }

    @Override
    public void put(Request request, Response response, Callback callback, String name, Path file, long delayMillis) {
        Replies.checkDeclaredLength(request, maxUploadBytes);
        long declared = request.getLength();
        timer.after(delayMillis, callback, () -> {
            Sha256 sha256 = new Sha256();
            RequestBodyPublisher body = new RequestBodyPublisher(request, maxUploadBytes, sha256);
            UploadOptions options =
                    declared >= 0 ? UploadOptions.defaults().withContentLength(declared) : UploadOptions.defaults();
            ReactiveObject.of(client, bucket, name)
                    .write(body, options)
                    .whenComplete((stored, failure) -> Replies.uploaded(
                            response, callback, events, name, sha256, failure == null ? stored.bytes() : 0, failure));
        });
    }

    @Override
    public void delete(
            Request request, Response response, Callback callback, String name, Path file, long delayMillis) {
        // S3 deletes a missing key without complaint: the HEAD before it is what answers 404.
        timer.after(
                delayMillis,
                callback,
                () -> ifExists(
                        name,
                        response,
                        callback,
                        head -> client.deleteObject(
                                        delete -> delete.bucket(bucket).key(name))
                                .whenComplete((deleted, failure) -> {
                                    if (failure == null) {
                                        Replies.deleted(response, callback, name, true);
                                    } else {
                                        callback.failed(Replies.unwrap(failure));
                                    }
                                })));
    }

    /** Runs {@code then} with the object's metadata, or answers 404 if there is none, or fails the request. */
    private void ifExists(String name, Response response, Callback callback, Consumer<HeadObjectResponse> then) {
        CompletableFuture<HeadObjectResponse> head =
                client.headObject(request -> request.bucket(bucket).key(name));
        head.whenComplete((found, failure) -> {
            if (failure == null) {
                try {
                    then.accept(found);
                } catch (RuntimeException e) {
                    callback.failed(e);
                }
                return;
            }
            Throwable cause = Replies.unwrap(failure);
            if (cause instanceof NoSuchKeyException || cause instanceof S3Exception s3 && s3.statusCode() == 404) {
                Replies.text(response, callback, 404, "no such file: " + name);
            } else {
                callback.failed(cause);
            }
        });
    }

    @Override
    public void close() {
        timer.close();
        client.close();
    }
}
