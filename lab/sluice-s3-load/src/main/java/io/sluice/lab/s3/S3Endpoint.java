package io.sluice.lab.s3;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClientBuilder;

import java.net.URI;
import java.time.Duration;

/**
 * The S3Proxy the harness started, at {@code http://127.0.0.1:PORT}, and the SDK clients every
 * transfer uses on it: the Netty client, path style, us-east-1, signed with the server's static
 * credentials, the SDK's default checksums. One place builds them, so the SDK's ways and sluice's
 * (which takes an {@link S3AsyncClient} the application built) run on the same settings.
 *
 * <p>The pool keeps the SDK's default size (but for the tuned client), and a request waits up to
 * {@link #ACQUIRE_TIMEOUT} for a connection instead of ten seconds: the SDK's multipart client keeps
 * up to 50 parts of each upload in flight, so ten 1 GiB uploads queue hundreds of part requests on a
 * pool of 50 and, at the default, fail with an acquire timeout (the SDK's own message advises a
 * longer one). A careful user of the multipart client sets it so. sluice bounds its parts in flight per upload (2 for a
 * stream, 8 for a file), so ten file uploads queue at most 30 part requests beyond the pool, each
 * for about one part's send.
 */
record S3Endpoint(URI uri, String bucket) {

    static final String IDENTITY = "lab-identity";
    static final String CREDENTIAL = "lab-credential";
    static final Region REGION = Region.US_EAST_1;

    /** How long a request may wait for a pooled connection. */
    static final Duration ACQUIRE_TIMEOUT = Duration.ofMinutes(10);

    /** A client without the SDK's multipart support: one {@code PutObject} or {@code GetObject} per transfer. */
    S3AsyncClient plainClient() {
        return builder().build();
    }

    /**
     * A client with the SDK's multipart support, on {@code tuning}: its parts and threshold of that size,
     * at most that many connections and parts in flight per upload ({@link SdkTuning#SDK_DEFAULTS}: the
     * SDK's {@code multipartEnabled(true)} as it comes, 8 MiB parts from 8 MiB, 50 of each). Uploads only: its downloads fetch parts by
     * number, which S3Proxy 4.1 refuses.
     */
    S3AsyncClient multipartClient(SdkTuning tuning) {
        if (tuning.equals(SdkTuning.SDK_DEFAULTS)) {
            return builder().multipartEnabled(true).build();
        }
        return builder(tuning.maxConnections())
                .multipartEnabled(true)
                .multipartConfiguration(multipart -> multipart
                        .minimumPartSizeInBytes(tuning.partSizeBytes())
                        .thresholdInBytes(tuning.partSizeBytes())
                        .parallelConfiguration(parallel -> parallel.maxInFlightParts(tuning.maxConnections())))
                .build();
    }

    /**
     * A client without multipart support that calculates checksums only where an operation requires one
     * ({@code requestChecksumCalculation(WHEN_REQUIRED)}), as for a store that refuses checksum headers: the
     * SDK sends no checksum of an upload's body, and sluice, which follows the client's setting, none either.
     */
    S3AsyncClient uncheckedClient() {
        return builder()
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .build();
    }

    private S3AsyncClientBuilder builder() {
        return builder(SdkTuning.SDK_DEFAULTS.maxConnections());
    }

    private S3AsyncClientBuilder builder(int maxConnections) {
        return S3AsyncClient.builder()
                .endpointOverride(uri)
                .forcePathStyle(true)
                .region(REGION)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(IDENTITY, CREDENTIAL)))
                .httpClientBuilder(NettyNioAsyncHttpClient.builder()
                        .maxConcurrency(maxConnections)
                        .connectionAcquisitionTimeout(ACQUIRE_TIMEOUT)
                        .readTimeout(Duration.ofSeconds(120))
                        .writeTimeout(Duration.ofSeconds(120)));
    }
}
