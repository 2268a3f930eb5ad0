package io.sluice;

import io.sluice.testing.Bytes;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A publisher over a pipe, socket or stream emits what a read returned as soon as it is read: a
 * peer waiting for an answer must never wait for a full chunk that will not come.
 */
class PromptReadTest {

    @Test
    void tenBytesWaitingInAPipeArriveAsOneChunkOnTheFirstRequest() throws Exception {
        Pipe pipe = Pipe.open();
        try (Pipe.SinkChannel sink = pipe.sink()) {
            byte[] ten = Bytes.random(10, 1);
            sink.write(ByteBuffer.wrap(ten));
            CollectingSubscriber subscriber = new CollectingSubscriber(0);
            ByteChannels.publisher(pipe.source()).subscribe(subscriber);
            subscriber.subscription.request(1);
            assertTrue(
                    subscriber.awaitChunks(1, 10, TimeUnit.SECONDS),
                    "a 10-byte chunk must not wait for 64 KiB that the pipe does not hold");
            assertEquals(1, subscriber.chunks.size());
            assertArrayEquals(ten, subscriber.bytes());
            assertEquals(10, subscriber.chunks.get(0).capacity(), "a small chunk does not pin a 64 KiB array");
            subscriber.subscription.cancel();
        }
    }

    @Test
    void anInputStreamThatReturnsThreeBytesThenBlocksDeliversTheThree() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        InputStream stream = new InputStream() {
            private boolean first = true;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] buffer, int off, int len) throws IOException {
                if (first) {
                    first = false;
                    buffer[off] = 'a';
                    buffer[off + 1] = 'b';
                    buffer[off + 2] = 'c';
                    return 3;
                }
                try {
                    release.await(); // a peer that has nothing more to say yet
                } catch (InterruptedException e) {
                    throw new InterruptedIOException();
                }
                return -1;
            }
        };
        CollectingSubscriber subscriber = new CollectingSubscriber(0);
        ByteStreams.publisher(stream).subscribe(subscriber);
        subscriber.subscription.request(5);
        try {
            assertTrue(subscriber.awaitChunks(1, 10, TimeUnit.SECONDS), "the three bytes read must be emitted");
            assertArrayEquals("abc".getBytes(StandardCharsets.US_ASCII), subscriber.bytes());
        } finally {
            release.countDown();
        }
        assertTrue(subscriber.terminated.await(30, TimeUnit.SECONDS));
        assertNull(subscriber.error);
        assertArrayEquals("abc".getBytes(StandardCharsets.US_ASCII), subscriber.bytes());
    }

    /**
     * A peer sends "ping i" and waits for "pong i", which the subscriber writes back on seeing the
     * whole ping: a publisher waiting for a full chunk deadlocks here at the first ping.
     */
    @Test
    void aRequestResponseExchangeOverASocketDoesNotDeadlock() throws Exception {
        ExecutorService peerThread = Executors.newSingleThreadExecutor();
        try (ServerSocketChannel server =
                        ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                SocketChannel client = SocketChannel.open(server.getLocalAddress());
                SocketChannel peer = server.accept()) {
            int rounds = 20;
            Future<?> exchange = peerThread.submit(() -> {
                for (int i = 0; i < rounds; i++) {
                    peer.write(ByteBuffer.wrap(("ping " + i + "\n").getBytes(StandardCharsets.US_ASCII)));
                    String answer = readLine(peer);
                    assertEquals("pong " + i, answer);
                }
                peer.shutdownOutput();
                return null;
            });
            Answering subscriber = new Answering(client);
            ByteChannels.publisher(client, ReadOptions.defaults().withChunkSize(4096))
                    .subscribe(subscriber);
            try {
                exchange.get(10, TimeUnit.SECONDS);
            } finally {
                peer.close(); // on failure: ends the read, so the publisher ends too
            }
            assertTrue(subscriber.done.await(30, TimeUnit.SECONDS));
            assertNull(subscriber.error);
            assertEquals(rounds, subscriber.answered);
        } finally {
            peerThread.shutdownNow();
        }
    }

    @Test
    void aRangedChannelReadEndsExactlyAtTheRangeWithoutWaitingForTheEnd() throws Exception {
        Pipe pipe = Pipe.open();
        try (Pipe.SinkChannel sink = pipe.sink()) {
            byte[] content = Bytes.random(100, 2);
            for (int i = 0; i < content.length; i += 7) {
                sink.write(ByteBuffer.wrap(content, i, Math.min(7, content.length - i)));
            }
            CollectingSubscriber subscriber = CollectingSubscriber.all();
            ByteChannels.publisher(pipe.source(), ReadOptions.range(5, 40).withChunkSize(16))
                    .subscribe(subscriber);
            subscriber.await(); // the pipe stays open: the range alone ends the read
            assertNull(subscriber.error);
            assertArrayEquals(Arrays.copyOfRange(content, 5, 45), subscriber.bytes());
            for (ByteBuffer chunk : subscriber.chunks) {
                assertTrue(chunk.remaining() > 0 && chunk.remaining() <= 16, "chunk of " + chunk.remaining());
            }
        }
    }

    private static String readLine(SocketChannel channel) throws IOException {
        StringBuilder line = new StringBuilder();
        ByteBuffer one = ByteBuffer.allocate(1);
        for (; ; ) {
            one.clear();
            if (channel.read(one) < 0) {
                throw new IOException("peer closed before a whole line; got '" + line + "'");
            }
            char character = (char) one.get(0);
            if (character == '\n') {
                return line.toString();
            }
            line.append(character);
        }
    }

    /** Collects chunks, requesting by hand; {@link #first} opens at the first chunk. */
    /** Answers every whole "ping i" line with "pong i", requesting one chunk at a time. */
    private static final class Answering implements Subscriber<ByteBuffer> {
        private final SocketChannel channel;
        private final StringBuilder pending = new StringBuilder(); // onNext only (serial, §1.3)
        final CountDownLatch done = new CountDownLatch(1);
        private Subscription subscription; // onSubscribe, then onNext (serial)
        volatile int answered; // onNext -> test thread
        volatile Throwable error; // onError -> test thread

        Answering(SocketChannel channel) {
            this.channel = channel;
        }

        @Override
        public void onSubscribe(Subscription subscription) {
            this.subscription = subscription;
            subscription.request(1);
        }

        @Override
        public void onNext(ByteBuffer chunk) {
            pending.append(StandardCharsets.US_ASCII.decode(chunk));
            int end;
            try {
                while ((end = pending.indexOf("\n")) >= 0) {
                    String ping = pending.substring(0, end);
                    pending.delete(0, end + 1);
                    channel.write(
                            ByteBuffer.wrap(("pong" + ping.substring(4) + "\n").getBytes(StandardCharsets.US_ASCII)));
                    answered++;
                }
            } catch (IOException e) {
                error = e;
                subscription.cancel();
                done.countDown();
                return;
            }
            subscription.request(1);
        }

        @Override
        public void onError(Throwable error) {
            this.error = error;
            done.countDown();
        }

        @Override
        public void onComplete() {
            done.countDown();
        }
    }
}
