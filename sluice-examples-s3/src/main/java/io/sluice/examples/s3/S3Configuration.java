package io.sluice.examples.s3;

import io.netty.util.concurrent.DefaultThreadFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.http.nio.netty.SdkEventLoopGroup;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClientBuilder;

/**
 * The one {@link S3AsyncClient} of the application: the Netty HTTP client (it reads a response only
 * as its subscriber asks, see docs/S3.md), the SDK's own multipart mode off (sluice does the
 * multipart upload). The client runs an event loop group of its own, its threads named
 * {@value #THREADS}-*, so that a thread dump says which threads are S3's, rather than the group the
 * SDK shares between clients; closing the client, with the context, stops it.
 */
@Configuration(proxyBeanMethods = false)
class S3Configuration {

    static final String THREADS = "s3-objects";

    @Bean(destroyMethod = "close")
    S3AsyncClient s3(S3Properties properties, ObjectProvider<AwsCredentialsProvider> credentials) {
        S3AsyncClientBuilder builder = S3AsyncClient.builder()
                .region(Region.of(properties.region()))
                .forcePathStyle(properties.pathStyle())
                .httpClientBuilder(NettyNioAsyncHttpClient.builder()
                        .eventLoopGroupBuilder(
                                SdkEventLoopGroup.builder().threadFactory(new DefaultThreadFactory(THREADS, true))));
        if (properties.endpoint() != null) {
            builder.endpointOverride(properties.endpoint());
        }
        credentials.ifAvailable(builder::credentialsProvider); // else the SDK's default chain
        return builder.build();
    }
}
