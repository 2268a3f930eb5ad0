package io.sluice.s3;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * B5: a server that stops sending mid-body without closing the connection ends the read after the
 * idle timeout, with the SDK's stream cancelled and its connection released; a subscriber that is
 * slow to request never trips the watchdog. The client has one connection, so a connection that
 * was not released shows as the next read failing to get one.
 */
class ObjectReadIdleTest {

    static final int MIB = 1024 * 1024;
    static final String BUCKET = "idle";
    static final int SIZE = 4 * MIB;

    static S3ProxyServer server;
    static StallingProxy proxy;
    static S3AsyncClient client;
    static final ScheduledExecutorService LATER = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "slow-subscriber");
        thread.setDaemon(true);
        return thread;
    });

    @BeforeAll
    static void start() throws Exception {
        server = S3ProxyServer.start();
        try (S3AsyncClient direct = server.newClient()) {
            direct.createBucket(request -> request.bucket(BUCKET)).join();
            direct.putObject(
                            request -> request.bucket(BUCKET).key("object"),
                            AsyncRequestBody.fromBytes(Bodies.bytes(SIZE)))
                    .join();
        }
        proxy = new StallingProxy(server.port());
        client = server.newClientVia(proxy.endpoint(), 1);
    }

    @AfterAll
    static void stop() throws Exception {
        client.close();
        proxy.close();
        server.close();
        LATER.shutdownNow();
    }

    @BeforeEach
    void noStall() {
        proxy.stallAfter(Long.MAX_VALUE);
    }

    @Test
    void aServerThatStopsSendingFailsTheReadNamingTheObjectAndTheIdleTime_B5() throws Exception {
        int closedBefore = proxy.closedByClient();
        proxy.stallAfter(256 * 1024); // headers and part of the body, then silence
        ObjectReadOptions options = ObjectReadOptions.defaults().withIdleTimeout(Duration.ofMillis(500));
        long started = System.nanoTime();

        ExecutionException failure = assertThrows(
                ExecutionException.class,
                () -> Bodies.md5(ReactiveObject.of(client, BUCKET, "object").read(options))
                        .get(20, TimeUnit.SECONDS));

        ObjectReadTimeoutException timeout = assertInstanceOf(ObjectReadTimeoutException.class, failure.getCause());
        assertEquals(BUCKET, timeout.bucket());
        assertEquals("object", timeout.key());
        assertEquals(Duration.ofMillis(500), timeout.idleTimeout());
        assertTrue(
                timeout.getMessage().contains("s3://idle/object")
                        && timeout.getMessage().contains("500 ms"),
                timeout.getMessage());
        assertTrue(System.nanoTime() - started >= TimeUnit.MILLISECONDS.toNanos(500), "not before the idle time");

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (proxy.closedByClient() == closedBefore && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(proxy.closedByClient() > closedBefore, "the SDK closed the stalled connection");
        proxy.stallAfter(Long.MAX_VALUE);
        assertEquals(
                Bodies.md5Of(SIZE) + "/" + SIZE,
                Bodies.md5(ReactiveObject.of(client, BUCKET, "object").read(options))
                        .get(20, TimeUnit.SECONDS),
                "the one connection was released: the next read gets it");
    }

    @Test
    void aStallBeforeTheHeadersAlsoEndsTheRead_B5() throws Exception {
        proxy.stallAfter(0);
        ObjectReadOptions options = ObjectReadOptions.defaults().withIdleTimeout(Duration.ofMillis(300));

        ExecutionException failure = assertThrows(
                ExecutionException.class,
                () -> Bodies.md5(ReactiveObject.of(client, BUCKET, "object").read(options))
                        .get(20, TimeUnit.SECONDS));

        assertInstanceOf(ObjectReadTimeoutException.class, failure.getCause());
        proxy.stallAfter(Long.MAX_VALUE);
        assertEquals(
                Bodies.md5Of(SIZE) + "/" + SIZE,
                Bodies.md5(ReactiveObject.of(client, BUCKET, "object").read(options))
                        .get(20, TimeUnit.SECONDS),
                "the connection was released");
    }

    @Test
    void aSlowSubscriberDoesNotTripTheWatchdog_B5() throws Exception {
        ObjectReadOptions options = ObjectReadOptions.defaults().withIdleTimeout(Duration.ofMillis(200));
        CompletableFuture<String> result = new CompletableFuture<>();
        AtomicLong items = new AtomicLong();
        ReactiveObject.of(client, BUCKET, "object").read(options).subscribe(new Subscriber<ByteBuffer>() {
            final java.security.MessageDigest md5 = Bodies.md5();
            long bytes;
            Subscription subscription;

            @Override
            public void onSubscribe(Subscription incoming) {
                subscription = incoming;
                incoming.request(1);
            }

            @Override
            public void onNext(ByteBuffer item) {
                bytes += item.remaining();
                md5.update(item);
                if (items.incrementAndGet() <= 3) {
                    LATER.schedule(() -> subscription.request(1), 1, TimeUnit.SECONDS); // 5 idle times, no demand
                } else {
                    subscription.request(1);
                }
            }

            @Override
            public void onError(Throwable error) {
                result.completeExceptionally(error);
            }

            @Override
            public void onComplete() {
                result.complete(java.util.HexFormat.of().formatHex(md5.digest()) + "/" + bytes);
            }
        });

        assertEquals(Bodies.md5Of(SIZE) + "/" + SIZE, result.get(30, TimeUnit.SECONDS));
    }

    @Test
    void theDefaultIsSixtySecondsAndCanBeTurnedOff() {
        assertEquals(Duration.ofSeconds(60), ObjectReadOptions.defaults().idleTimeout());
        assertEquals(
                Duration.ZERO, ObjectReadOptions.defaults().withoutIdleTimeout().idleTimeout());
        assertThrows(
                IllegalArgumentException.class,
                () -> ObjectReadOptions.defaults().withIdleTimeout(Duration.ZERO));
    }
}
