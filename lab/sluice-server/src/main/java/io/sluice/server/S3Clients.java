package io.sluice.server;

import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClientBuilder;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The S3 client a server stores its files with. */
final class S3Clients {

    private S3Clients() {}

    /**
     * A client for {@code bucket}'s server: the SDK's Netty HTTP client (the one sluice-s3 is tested
     * on), its default credentials chain and retry policy, and, with an endpoint, path-style
     * addresses. The caller closes it.
     *
     * @throws IOException naming the bucket if it cannot be reached within 30 s (missing, another
     *     owner's, wrong credentials, no server at the endpoint)
     */
    static S3AsyncClient of(S3Bucket bucket) throws IOException {
        S3AsyncClientBuilder builder = S3AsyncClient.builder()
                .region(Region.of(bucket.region()))
                .httpClientBuilder(NettyNioAsyncHttpClient.builder());
        if (bucket.endpoint() != null) {
            builder.endpointOverride(bucket.endpoint()).forcePathStyle(true);
        }
        S3AsyncClient client = builder.build();
        try {
            // At start, as a directory is created at start: a wrong name, endpoint or credentials
            // refuses the server with one message instead of failing every request.
            client.headBucket(request -> request.bucket(bucket.bucket())).get(30, TimeUnit.SECONDS);
            return client;
        } catch (ExecutionException | TimeoutException e) {
            client.close();
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new IOException("cannot use bucket " + bucket + ": " + cause, cause);
        } catch (InterruptedException e) {
            client.close();
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while checking bucket " + bucket);
        }
    }
}
