package io.sluice.examples.spring;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring Boot WebFlux application on Reactor Netty that stores uploads in a directory and serves
 * them back, each way in two variants: Spring's own ({@code /spring/...}) and sluice's
 * ({@code /sluice/...}). The directory is {@code sluice.storage} (default: {@code uploads} in the
 * working directory).
 *
 * <pre>
 * mvn -q -B -DskipTests package -pl sluice-examples-spring -am
 * java -jar sluice-examples-spring/target/sluice-examples-spring-0.1.0-SNAPSHOT-exec.jar --sluice.storage=/tmp/uploads
 * </pre>
 */
@SpringBootApplication
public class FilesApplication {

    public static void main(String[] args) {
        SpringApplication.run(FilesApplication.class, args);
    }
}
