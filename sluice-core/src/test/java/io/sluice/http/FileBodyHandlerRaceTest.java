package io.sluice.http;

import io.sluice.WriteOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.sluice.testkit.ResponseInfos.ok;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A download as the {@code HttpClient} delivers it: lists of buffers on the client's thread, each
 * answering a request, the last one followed at once by {@code onComplete}, while the writer asks
 * for more on its own threads. The body's value is a claim that the whole body is in the file: a
 * truncated body must never be reported as a success.
 */
class FileBodyHandlerRaceTest {

    private static final long TIME_LIMIT_NANOS = TimeUnit.MILLISECONDS.toNanos(1500);
    private static final int LISTS = 24;
    private static final int BUFFERS_PER_LIST = 3;
    private static final int BUFFER_BYTES = 512;

    private static ExecutorService clientThread;

    @TempDir
    Path directory;

    @BeforeAll
    static void startClientThread() {
        clientThread = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "race-http-client");
            thread.setDaemon(true);
            return thread;
        });
    }

    @AfterAll
    static void stopClientThread() {
        clientThread.shutdownNow();
    }

    @Test
    void aSuccessfulBodyIsTheWholeBodyInTheFile() throws Exception {
        long deadline = System.nanoTime() + TIME_LIMIT_NANOS;
        int runs = 0;
        List<String> truncated = new ArrayList<>();
        while (runs < 2_000 && System.nanoTime() < deadline) {
            runs++;
            Path file = directory.resolve("body-" + runs + ".bin");
            HttpResponse.BodySubscriber<Long> body =
                    FileBodyHandler.to(file, WriteOptions.defaults()).apply(ok());
            RequestCounter subscription = new RequestCounter();
            Future<?> client = clientThread.submit(() -> sendBody(body, subscription, null));
            body.onSubscribe(subscription);

            long written = body.getBody().toCompletableFuture().get(10, TimeUnit.SECONDS);
            client.get(10, TimeUnit.SECONDS);
            long expected = (long) LISTS * BUFFERS_PER_LIST * BUFFER_BYTES;
            if (written != expected || Files.size(file) != expected) {
                truncated.add("run " + runs + ": success with " + written + " bytes reported, " + Files.size(file)
                        + " in the file, of " + expected);
            } else if (runs == 1) {
                assertArrayEquals(expectedContent(), Files.readAllBytes(file), "content and order");
            }
            Files.delete(file);
        }
        assertTrue(
                truncated.isEmpty(),
                "a truncated body was reported as a success in " + truncated.size() + " of " + runs + " runs, e.g. "
                        + truncated.subList(0, Math.min(3, truncated.size())));
    }

    @Test
    void aBodyThatFailsAfterItsLastListFailsTheStage() throws Exception {
        Path file = directory.resolve("failed.bin");
        HttpResponse.BodySubscriber<Long> body =
                FileBodyHandler.to(file, WriteOptions.defaults()).apply(ok());
        RequestCounter subscription = new RequestCounter();
        java.io.IOException reset = new java.io.IOException("connection reset");
        Future<?> client = clientThread.submit(() -> sendBody(body, subscription, reset));
        body.onSubscribe(subscription);

        CompletionException failure = assertThrows(
                CompletionException.class,
                () -> body.getBody().toCompletableFuture().join());
        assertTrue(failure.getCause() == reset, "the client's own error: " + failure.getCause());
        client.get(10, TimeUnit.SECONDS);
    }

    /** The client's side: one list per request, then the terminal signal right after the last. */
    private static Void sendBody(
            Flow.Subscriber<List<ByteBuffer>> body, RequestCounter subscription, Throwable endWith) {
        int value = 0;
        for (int sent = 0; sent < LISTS; sent++) {
            while (subscription.requested.get() <= sent) {
                Thread.onSpinWait();
            }
            List<ByteBuffer> list = new ArrayList<>();
            for (int b = 0; b < BUFFERS_PER_LIST; b++) {
                ByteBuffer buffer = ByteBuffer.allocate(BUFFER_BYTES);
                while (buffer.hasRemaining()) {
                    buffer.put((byte) value++);
                }
                list.add(buffer.flip());
            }
            body.onNext(list);
        }
        if (endWith == null) {
            body.onComplete();
        } else {
            body.onError(endWith);
        }
        return null;
    }

    private static byte[] expectedContent() {
        byte[] content = new byte[LISTS * BUFFERS_PER_LIST * BUFFER_BYTES];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) i;
        }
        return content;
    }

    private static final class RequestCounter implements Flow.Subscription {
        final AtomicLong requested = new AtomicLong();

        @Override
        public void request(long n) {
            requested.addAndGet(n);
        }

        @Override
        public void cancel() {
            requested.set(Long.MAX_VALUE); // lets the client's loop end
        }
    }
}
