package io.sluice.examples.s3;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import java.net.URI;

/**
 * Where the application stores objects, from the {@code s3.*} properties.
 *
 * @param bucket the bucket every object goes to; it must exist
 * @param endpoint an S3-compatible server's address ({@code http://127.0.0.1:9000}); unset for AWS
 * @param region the signing region
 * @param pathStyle {@code true} for servers that take the bucket in the path, not the host name
 * @param partSize the size of an upload's parts (the last may be shorter): 5 MB to 1 GB
 */
@ConfigurationProperties("s3")
public record S3Properties(
        String bucket,
        URI endpoint,
        @DefaultValue("us-east-1") String region,
        @DefaultValue("false") boolean pathStyle,
        @DefaultValue("8MB") DataSize partSize) {

    public S3Properties {
        if (bucket == null || bucket.isBlank()) {
            throw new IllegalArgumentException("s3.bucket must name the bucket to store in");
        }
    }
}
