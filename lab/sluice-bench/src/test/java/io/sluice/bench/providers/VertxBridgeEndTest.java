package io.sluice.bench.providers;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.reactivestreams.ReactiveWriteStream;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The Vert.x copy ends each side of its reactive-streams bridge only after that side has passed on every buffer. */
class VertxBridgeEndTest {

    @Test
    void buffersWaitingForDemandWhenTheFileIsReadOutStillReachTheSubscriber() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            ReactiveWriteStream<Buffer> bridge = ReactiveWriteStream.writeStream(vertx);
            List<Integer> received = new CopyOnWriteArrayList<>();
            CompletableFuture<Subscription> subscribed = new CompletableFuture<>();
            CompletableFuture<Void> completed = new CompletableFuture<>();
            bridge.subscribe(new Subscriber<Buffer>() {
                @Override
                public void onSubscribe(Subscription subscription) {
                    subscribed.complete(subscription);
                }

                @Override
                public void onNext(Buffer buffer) {
                    received.add((int) buffer.getByte(0));
                }

                @Override
                public void onError(Throwable error) {
                    completed.completeExceptionally(error);
                }

                @Override
                public void onComplete() {
                    completed.complete(null);
                }
            });
            Subscription subscription = subscribed.get(10, TimeUnit.SECONDS);
            for (int i = 0; i < 3; i++) {
                bridge.write(Buffer.buffer(new byte[] {(byte) i})); // no demand yet: all three wait in the bridge
            }
            VertxProvider.endWhenSent(bridge); // the source is read out
            subscription.request(3);
            completed.get(10, TimeUnit.SECONDS);
            assertEquals(List.of(0, 1, 2), received, "every buffer before onComplete");
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void buffersQueuedInThePausedReadStreamWhenThePublisherCompletesStillReachTheConsumer() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            ReactiveWriteStream<Buffer> publisher = ReactiveWriteStream.writeStream(vertx);
            CountedBridge bridge = new CountedBridge();
            List<Integer> handled = new CopyOnWriteArrayList<>();
            CompletableFuture<List<Integer>> ended = new CompletableFuture<>();
            bridge.endHandler(ignored -> ended.complete(List.copyOf(handled)));
            bridge.handler(buffer -> {
                handled.add((int) buffer.getByte(0));
                if (handled.size() == 1) {
                    bridge.pause(); // the consumer is full after the first buffer
                }
            });
            CompletableFuture<Void> completionPassed = new CompletableFuture<>();
            publisher.subscribe(
                    new Subscriber<Buffer>() { // the bridge, telling when onComplete went in
                        @Override
                        public void onSubscribe(Subscription subscription) {
                            bridge.onSubscribe(subscription);
                        }

                        @Override
                        public void onNext(Buffer buffer) {
                            bridge.onNext(buffer);
                        }

                        @Override
                        public void onError(Throwable error) {
                            bridge.onError(error);
                        }

                        @Override
                        public void onComplete() {
                            bridge.onComplete();
                            completionPassed.complete(null);
                        }
                    });
            for (int i = 0; i < 3; i++) {
                publisher.write(Buffer.buffer(new byte[] {(byte) i}));
            }
            VertxProvider.endWhenSent(publisher);
            completionPassed.get(10, TimeUnit.SECONDS);
            assertFalse(ended.isDone(), "ended with " + handled + " handled, the rest still queued");
            bridge.resume(); // the consumer has room again
            assertEquals(List.of(0, 1, 2), ended.get(10, TimeUnit.SECONDS), "every buffer before the end");
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }
}
