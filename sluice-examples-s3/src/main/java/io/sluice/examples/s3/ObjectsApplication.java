package io.sluice.examples.s3;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * A Spring Boot WebFlux application on Reactor Netty that streams each upload into an S3 object as
 * it arrives and serves objects back ({@link ObjectController}), through sluice-s3's
 * {@code ReactiveObject}. Where it stores is {@code s3.*} ({@link S3Properties}); credentials come
 * from the AWS SDK's default chain (environment, profile, instance role) unless the context has an
 * {@code AwsCredentialsProvider} bean.
 *
 * <pre>
 * mvn -q -B -DskipTests package -pl sluice-examples-s3 -am
 * java -jar sluice-examples-s3/target/sluice-examples-s3-0.1.0-SNAPSHOT-exec.jar --s3.bucket=uploads \
 *     --s3.endpoint=http://127.0.0.1:9000 --s3.path-style=true
 * curl -T db.dump http://127.0.0.1:8080/objects/db.dump
 * </pre>
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class ObjectsApplication {

    public static void main(String[] args) {
        SpringApplication.run(ObjectsApplication.class, args);
    }
}
