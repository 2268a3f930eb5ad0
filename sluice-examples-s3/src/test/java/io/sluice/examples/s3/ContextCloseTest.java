package io.sluice.examples.s3;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sluice.examples.spring.LeakReports;
import io.sluice.s3.S3ProxyServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The application closes cleanly: closing its context logs no warning or error (a destroy method
 * that throws is logged, not thrown) and closes the S3 client it built, whose event loop threads
 * ({@link S3Configuration#THREADS}) then end; they never end while the client is open.
 */
@ExtendWith(LeakReports.class)
class ContextCloseTest {

    @Test
    void closingTheContextClosesTheS3ClientAndLogsNoWarning() throws Exception {
        S3ProxyServer server = S3ProxyServer.start(); // not in a try-with-resources: close() throws Exception
        try (S3AsyncClient admin = server.newClient()) {
            admin.createBucket(request -> request.bucket("closing")).join();
            List<Thread> othersLoops = s3EventLoops(); // those of contexts other tests in this JVM left open
            ConfigurableApplicationContext context = new SpringApplicationBuilder(
                            ObjectsApplication.class, S3ProxyCredentials.class)
                    .properties(
                            "server.port=0",
                            "s3.bucket=closing",
                            "s3.endpoint=" + server.endpoint(),
                            "s3.path-style=true")
                    .run();
            int port = ((WebServerApplicationContext) context).getWebServer().getPort();
            HttpResponse<String> put = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .build()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/objects/one"))
                                    .PUT(HttpRequest.BodyPublishers.ofString("one"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertEquals(200, put.statusCode(), put.body());
            List<Thread> appsLoops = s3EventLoops().stream()
                    .filter(thread -> !othersLoops.contains(thread))
                    .toList();
            assertFalse(appsLoops.isEmpty(), "the application's S3 client runs its own event loops");

            List<String> logged = whileRecordingWarnings(context::close);

            assertFalse(context.isActive());
            assertEquals(List.of(), logged);
            Deadlines.awaitTrue(
                    "the client's event loops " + appsLoops + " ended",
                    Duration.ofSeconds(30),
                    () -> appsLoops.stream().noneMatch(Thread::isAlive));
        } finally {
            server.close();
        }
    }

    /** The live threads of the application clients' event loop groups, each client's group its own. */
    private static List<Thread> s3EventLoops() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith(S3Configuration.THREADS + "-"))
                .toList();
    }

    /** Runs {@code action} and returns what was logged at WARN or above meanwhile. */
    private static List<String> whileRecordingWarnings(Runnable action) {
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ListAppender<ILoggingEvent> recorded = new ListAppender<>() {
            @Override
            protected void append(ILoggingEvent event) {
                if (event.getLevel().isGreaterOrEqual(Level.WARN)) {
                    super.append(event);
                }
            }
        };
        recorded.setContext(root.getLoggerContext());
        recorded.start();
        root.addAppender(recorded);
        try {
            action.run();
        } finally {
            root.detachAppender(recorded);
        }
        return recorded.list.stream()
                .map(event -> event.getLevel() + " " + event.getFormattedMessage())
                .toList();
    }
}
