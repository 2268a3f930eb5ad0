package io.sluice;

import io.reactivex.rxjava3.core.Flowable;
import io.sluice.testing.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Reactor, RxJava 3 and JDK Flow take our publishers and feed our writers with no adapters. */
class InteropTest {

    @TempDir
    Path dir;

    @Test
    void readsWithReactorFluxFrom() {
        byte[] content = Bytes.random(1_000_000, 1);
        Path file = Bytes.file(dir, "in", content);
        List<ByteBuffer> chunks =
                Flux.from(ReactiveFile.of(file).read()).collectList().block();
        assertArrayEquals(content, Bytes.concat(chunks));
    }

    @Test
    void writesAReactorFlux() throws Exception {
        byte[] content = Bytes.random(2_000_000, 2);
        Path file = dir.resolve("out");
        Flux<ByteBuffer> flux =
                Flux.range(0, content.length / 1000).map(index -> ByteBuffer.wrap(content, index * 1000, 1000));
        long written = ReactiveFile.of(file).write(flux).toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertEquals(content.length, written);
        assertArrayEquals(content, Files.readAllBytes(file));
    }

    @Test
    void writesAnRxJavaFlowable() throws Exception {
        byte[] content = Bytes.random(1_500_000, 3);
        Path file = dir.resolve("out");
        Flowable<ByteBuffer> flowable =
                Flowable.range(0, content.length / 500).map(index -> ByteBuffer.wrap(content, index * 500, 500));
        long written =
                ReactiveFile.of(file).write(flowable).toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertEquals(content.length, written);
        assertArrayEquals(content, Files.readAllBytes(file));
    }

    @Test
    void aFlowSubscriberReadsOurPublisherDirectly() throws Exception {
        byte[] content = Bytes.random(300_000, 4);
        Path file = Bytes.file(dir, "in", content);
        CompletableFuture<byte[]> result = new CompletableFuture<>();
        Flow.Publisher<ByteBuffer> publisher = ReactiveFile.of(file).read();
        publisher.subscribe(new Flow.Subscriber<ByteBuffer>() {
            private final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();

            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                subscription.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(ByteBuffer item) {
                byte[] chunk = new byte[item.remaining()];
                item.get(chunk);
                bytes.writeBytes(chunk);
            }

            @Override
            public void onError(Throwable throwable) {
                result.completeExceptionally(throwable);
            }

            @Override
            public void onComplete() {
                result.complete(bytes.toByteArray());
            }
        });
        assertArrayEquals(content, result.get(30, TimeUnit.SECONDS));
    }

    @Test
    void writesAJdkSubmissionPublisher() throws Exception {
        Path file = dir.resolve("out");
        CompletableFuture<Long> stage;
        try (java.util.concurrent.SubmissionPublisher<ByteBuffer> publisher =
                new java.util.concurrent.SubmissionPublisher<>()) {
            stage = ReactiveFile.of(file).write(publisher).toCompletableFuture();
            for (int i = 0; i < 100; i++) {
                publisher.submit(ByteBuffer.wrap(new byte[] {(byte) i}));
            }
        }
        assertEquals(100L, stage.get(30, TimeUnit.SECONDS));
        assertEquals(100, Files.size(file));
    }
}
