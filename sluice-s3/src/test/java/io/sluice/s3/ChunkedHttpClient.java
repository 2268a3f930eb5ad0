package io.sluice.s3;

import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import org.reactivestreams.example.unicast.AsyncIterablePublisher;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.http.async.AsyncExecuteRequest;
import software.amazon.awssdk.http.async.SdkAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * An HTTP client for the SDK that answers every GET of {@code /bucket/N} with an object of N bytes
 * sent as exactly N one-byte chunks, with its Content-Length and MD5 ETag: the SDK's S3 pipeline and
 * {@link ReactiveObject#read()} run as they do against a server, but the number of items a read
 * publishes is known, which the TCK needs. The body is the TCK's own example publisher
 * ({@link AsyncIterablePublisher}), so it honours demand exactly.
 */
final class ChunkedHttpClient implements SdkAsyncHttpClient {

    private final ExecutorService executor = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "chunked-http");
        thread.setDaemon(true);
        return thread;
    });

    static S3AsyncClient s3Client(ChunkedHttpClient http) {
        return S3AsyncClient.builder()
                .endpointOverride(URI.create("http://127.0.0.1:1"))
                .forcePathStyle(true)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                .httpClient(http)
                .build();
    }

    @Override
    public CompletableFuture<Void> execute(AsyncExecuteRequest request) {
        String path = request.request().encodedPath();
        int count = Integer.parseInt(path.substring(path.lastIndexOf('/') + 1));
        List<ByteBuffer> chunks = new ArrayList<>(count);
        byte[] bytes = new byte[count];
        for (int i = 0; i < count; i++) {
            bytes[i] = (byte) i;
            chunks.add(ByteBuffer.wrap(new byte[] {(byte) i}));
        }
        String eTag = HexFormat.of().formatHex(Bodies.md5().digest(bytes));
        CompletableFuture<Void> done = new CompletableFuture<>();
        request.responseHandler()
                .onHeaders(SdkHttpResponse.builder()
                        .statusCode(200)
                        .putHeader("Content-Length", Integer.toString(count))
                        .putHeader("ETag", "\"" + eTag + "\"")
                        .build());
        Publisher<ByteBuffer> body = new AsyncIterablePublisher<>(chunks, executor);
        request.responseHandler()
                .onStream(subscriber -> body.subscribe(new Subscriber<ByteBuffer>() {
                    @Override
                    public void onSubscribe(Subscription subscription) {
                        subscriber.onSubscribe(new Subscription() {
                            @Override
                            public void request(long n) {
                                subscription.request(n);
                            }

                            @Override
                            public void cancel() {
                                subscription.cancel();
                                done.complete(null);
                            }
                        });
                    }

                    @Override
                    public void onNext(ByteBuffer item) {
                        subscriber.onNext(item);
                    }

                    @Override
                    public void onError(Throwable error) {
                        subscriber.onError(error);
                        done.complete(null);
                    }

                    @Override
                    public void onComplete() {
                        subscriber.onComplete();
                        done.complete(null);
                    }
                }));
        return done;
    }

    @Override
    public String clientName() {
        return "chunked-test";
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
