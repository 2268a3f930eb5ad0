package io.sluice.server.ws;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shared generator's contract with each client stream: demand, order, §3.9, cancel. */
@Timeout(30)
class MessageGeneratorTest {

    private final MessageGenerator generator = MessageGenerator.start(0, "ws-generator-test");

    @AfterEach
    void stop() throws InterruptedException {
        generator.close();
    }

    @Test
    void makesExactlyTheRequestedMessagesInSequenceFromZero_1_1() throws InterruptedException {
        Signals first = new Signals();
        generator.publisher().subscribe(first);
        first.subscription().request(5);
        for (long sequence = 0; sequence < 5; sequence++) {
            ByteBuffer message = first.next();
            assertEquals(sequence, Message.sequence(message));
            assertEquals(Message.BYTES, message.remaining());
        }
        // one thread serves streams in the order they asked: once a later stream got its message,
        // the first one's turn is over, so anything beyond its demand would already be queued
        Signals second = new Signals();
        generator.publisher().subscribe(second);
        second.subscription().request(1);
        assertEquals(0, Message.sequence(second.next()));
        assertNull(first.signals.poll(), "nothing beyond the demand (§1.1)");
    }

    @Test
    void aNonPositiveRequestEndsTheStreamWithOnError_3_9() throws InterruptedException {
        Signals signals = new Signals();
        generator.publisher().subscribe(signals);
        signals.subscription().request(0);
        Object signal = signals.signals.poll(10, TimeUnit.SECONDS);
        assertInstanceOf(IllegalArgumentException.class, signal);
        assertTrue(((Throwable) signal).getMessage().contains("§3.9"));
        assertEquals(0, generator.activeStreams());
    }

    @Test
    void cancelEndsTheStreamAndItsDemand_3_13() throws InterruptedException {
        Signals signals = new Signals();
        generator.publisher().subscribe(signals);
        assertEquals(1, generator.activeStreams());
        signals.subscription().request(1);
        assertNotNull(signals.next());
        signals.subscription().cancel();
        assertEquals(0, generator.activeStreams());
        signals.subscription().request(1_000);
        Signals later = new Signals();
        generator.publisher().subscribe(later);
        later.subscription().request(1);
        assertNotNull(later.next());
        assertNull(signals.signals.poll(), "nothing after cancel");
    }

    /** Records every signal in order: a message, a failure, or "complete". */
    private static final class Signals implements Flow.Subscriber<ByteBuffer> {
        final BlockingQueue<Object> signals = new LinkedBlockingQueue<>();
        private volatile Flow.Subscription subscription;

        Flow.Subscription subscription() {
            return subscription;
        }

        ByteBuffer next() throws InterruptedException {
            Object signal = signals.poll(10, TimeUnit.SECONDS);
            assertInstanceOf(ByteBuffer.class, signal, "expected a message, got " + signal);
            return (ByteBuffer) signal;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
        }

        @Override
        public void onNext(ByteBuffer item) {
            signals.add(item);
        }

        @Override
        public void onError(Throwable throwable) {
            signals.add(throwable);
        }

        @Override
        public void onComplete() {
            signals.add("complete");
        }
    }
}
