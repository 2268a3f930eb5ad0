package io.sluice.s3;

import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;

/**
 * S3Proxy in this JVM on a random loopback port, with a filesystem store in a temporary directory,
 * and a Netty-based SDK client for it. Jetty's threads are not daemons: always {@link #close()}.
 * Public for sluice-examples-s3's tests, which take it from this module's -tests jar.
 */
public final class S3ProxyServer implements AutoCloseable {

    public static final String IDENTITY = "local-identity";
    public static final String CREDENTIAL = "local-credential";

    private final Path store;
    private S3Proxy proxy;
    private int port;

    private S3ProxyServer(Path store) {
        this.store = store;
    }

    /** Starts a server on a random port with a new store. */
    public static S3ProxyServer start() throws Exception {
        S3ProxyServer server = new S3ProxyServer(Files.createTempDirectory("sluice-s3proxy"));
        server.startOn(0);
        return server;
    }

    /** Starts (again) on {@code wantedPort}, 0 for any; the store is kept. */
    void startOn(int wantedPort) throws Exception {
        Properties properties = new Properties();
        properties.setProperty("jclouds.provider", "filesystem");
        properties.setProperty("jclouds.filesystem.basedir", store.toString());
        properties.setProperty("s3proxy.endpoint", "http://127.0.0.1:" + wantedPort);
        properties.setProperty("s3proxy.authorization", "aws-v2-or-v4");
        properties.setProperty("s3proxy.identity", IDENTITY);
        properties.setProperty("s3proxy.credential", CREDENTIAL);
        // Without it every SDK CompleteMultipartUpload fails (501: x-amz-mp-object-size).
        properties.setProperty("s3proxy.ignore-unknown-headers", "true");
        S3Proxy.Builder builder = S3Proxy.Builder.fromProperties(properties);
        proxy = builder.blobStore(BlobStores.create("filesystem", properties)).build();
        proxy.start();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("S3Proxy did not start: " + proxy.getState());
            }
            Thread.sleep(5);
        }
        port = proxy.getPort();
    }

    /** Stops the server; the store stays, so {@link #startOn} can bring it back. */
    void stop() throws Exception {
        if (proxy != null) {
            proxy.stop();
            proxy = null;
        }
    }

    int port() {
        return port;
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** A client for this server: Netty, path style, few retries (a stopped server fails fast). */
    public S3AsyncClient newClient(ExecutionInterceptor... interceptors) {
        return newClient(Duration.ofSeconds(30), interceptors);
    }

    /**
     * A client that calculates request checksums only when an operation requires them
     * ({@code RequestChecksumCalculation.WHEN_REQUIRED}), as one builds for a store that refuses them.
     */
    S3AsyncClient newClientWithChecksumsOnlyWhenRequired(ExecutionInterceptor... interceptors) {
        return S3AsyncClient.builder()
                .endpointOverride(endpoint())
                .forcePathStyle(true)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(IDENTITY, CREDENTIAL)))
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .overrideConfiguration(settings -> settings.executionInterceptors(List.of(interceptors)))
                .build();
    }

    /** As {@link #newClient(ExecutionInterceptor...)}, giving up on a silent connection after {@code readTimeout}. */
    S3AsyncClient newClient(Duration readTimeout, ExecutionInterceptor... interceptors) {
        return newClient(readTimeout, 2, interceptors);
    }

    /**
     * A client that tries each request up to six times. S3Proxy answers an error (a missing bucket, say) before it reads
     * a small {@code PutObject}'s body and then closes the connection; the SDK, still writing the body, reports the
     * broken pipe instead of the answer in about one try of seven here. A test that asserts the answer's type uses this
     * client, so that the race decides it once in about 100,000 runs, not once in 50.
     */
    S3AsyncClient newPatientClient() {
        return newClient(Duration.ofSeconds(30), 6);
    }

    /**
     * A client that reaches this server through {@code endpoint} (a proxy in front of it) with at most
     * {@code connections} connections, waiting at most 3 s for one: a connection that is never given
     * back shows as a failed acquisition.
     */
    S3AsyncClient newClientVia(URI endpoint, int connections, ExecutionInterceptor... interceptors) {
        return S3AsyncClient.builder()
                .endpointOverride(endpoint)
                .forcePathStyle(true)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(IDENTITY, CREDENTIAL)))
                .httpClientBuilder(NettyNioAsyncHttpClient.builder()
                        .maxConcurrency(connections)
                        .connectionAcquisitionTimeout(Duration.ofSeconds(3)))
                .overrideConfiguration(settings -> settings.retryStrategy(RetryMode.STANDARD)
                        .retryStrategy(retry -> retry.maxAttempts(1))
                        .executionInterceptors(List.of(interceptors)))
                .build();
    }

    private S3AsyncClient newClient(Duration readTimeout, int attempts, ExecutionInterceptor... interceptors) {
        return S3AsyncClient.builder()
                .endpointOverride(endpoint())
                .forcePathStyle(true)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(IDENTITY, CREDENTIAL)))
                .httpClientBuilder(NettyNioAsyncHttpClient.builder().readTimeout(readTimeout))
                .overrideConfiguration(settings -> settings.retryStrategy(RetryMode.STANDARD)
                        .retryStrategy(retry -> retry.maxAttempts(attempts))
                        .executionInterceptors(List.of(interceptors)))
                .build();
    }

    @Override
    public void close() throws Exception {
        stop();
        try (Stream<Path> files = Files.walk(store)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException ignored) {
                    // a temp directory: best effort
                }
            });
        }
    }

    /** Multipart uploads still open in {@code bucket}: 0 after every upload, whatever happened. */
    public static int openUploads(S3AsyncClient client, String bucket) {
        return client.listMultipartUploads(request -> request.bucket(bucket))
                .join()
                .uploads()
                .size();
    }

    /** Whether the object exists. */
    public static boolean exists(S3AsyncClient client, String bucket, String key) {
        try {
            client.headObject(request -> request.bucket(bucket).key(key)).join();
            return true;
        } catch (CompletionException e) {
            if (e.getCause() instanceof NoSuchKeyException
                    || e.getCause() instanceof software.amazon.awssdk.services.s3.model.S3Exception s3
                            && s3.statusCode() == 404) {
                return false;
            }
            throw e;
        }
    }
}
