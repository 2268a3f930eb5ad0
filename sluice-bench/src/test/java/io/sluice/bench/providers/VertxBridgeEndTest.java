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

/** The Vert.x copy ends its reactive-streams bridge only after the bridge has delivered every buffer. */
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
                bridge.write(Buffer.buffer(new byte[] {(byte) i}));   // no demand yet: all three wait in the bridge
            }
            VertxProvider.endWhenSent(bridge);                        // the source is read out
            subscription.request(3);
            completed.get(10, TimeUnit.SECONDS);
            assertEquals(List.of(0, 1, 2), received, "every buffer before onComplete");
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }
}
