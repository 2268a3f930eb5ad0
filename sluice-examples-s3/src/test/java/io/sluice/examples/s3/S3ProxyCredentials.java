package io.sluice.examples.s3;

import io.sluice.s3.S3ProxyServer;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/** The test server's credentials for the application's client, instead of the SDK's default chain. */
@TestConfiguration(proxyBeanMethods = false)
class S3ProxyCredentials {

    @Bean
    AwsCredentialsProvider credentials() {
        return StaticCredentialsProvider.create(
                AwsBasicCredentials.create(S3ProxyServer.IDENTITY, S3ProxyServer.CREDENTIAL));
    }
}
