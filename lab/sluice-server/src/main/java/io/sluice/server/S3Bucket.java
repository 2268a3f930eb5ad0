package io.sluice.server;

import java.net.URI;
import java.util.Objects;

/**
 * The S3-compatible bucket a server stores its files in instead of a directory:
 * {@code --storage s3://BUCKET}, with {@code --s3-endpoint} for a server other than AWS (S3Proxy,
 * Ceph RGW, MinIO, R2) and {@code --s3-region}. Credentials are the AWS SDK's default chain
 * ({@code AWS_ACCESS_KEY_ID}/{@code AWS_SECRET_ACCESS_KEY}, the {@code aws.accessKeyId}/
 * {@code aws.secretAccessKey} system properties, a profile...), never a flag: a flag shows in
 * {@code ps}.
 *
 * @param bucket the bucket's name
 * @param endpoint the server's URI, or null for AWS's endpoint of {@code region}; with one, requests
 *     use path-style addresses ({@code endpoint/bucket/key}), as most servers other than AWS need
 * @param region the region requests are signed for
 */
public record S3Bucket(String bucket, URI endpoint, String region) {

    private static final String SCHEME = "s3://";

    public S3Bucket {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(region, "region");
        if (bucket.isEmpty() || bucket.contains("/")) {
            throw new IllegalArgumentException("a bucket name, without '/', was '" + bucket + "'");
        }
    }

    /**
     * The bucket {@code storage} names.
     *
     * @param storage {@code s3://BUCKET}
     * @param endpoint the server's URI, or null or empty for AWS
     * @param region the region
     * @throws IllegalArgumentException naming what is wrong with {@code storage} or {@code endpoint}
     */
    public static S3Bucket parse(String storage, String endpoint, String region) {
        if (!storage.startsWith(SCHEME) || storage.length() == SCHEME.length()) {
            throw new IllegalArgumentException("--storage must be s3://BUCKET, was '" + storage + "'");
        }
        String bucket = storage.substring(SCHEME.length());
        if (bucket.endsWith("/")) {
            bucket = bucket.substring(0, bucket.length() - 1);
        }
        URI uri = null;
        if (endpoint != null && !endpoint.isEmpty()) {
            uri = URI.create(endpoint);
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
                throw new IllegalArgumentException(
                        "--s3-endpoint must be an http or https URI, was '" + endpoint + "'");
            }
        }
        return new S3Bucket(bucket, uri, region);
    }

    @Override
    public String toString() {
        return SCHEME + bucket + (endpoint == null ? "" : " at " + endpoint) + " (" + region + ")";
    }
}
