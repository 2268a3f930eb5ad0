package io.sluice.server.load;

import org.HdrHistogram.Histogram;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * JDK {@code HttpClient} traffic: closed-loop (N requests always in flight, like wrk) and open-model (a fixed
 * arrival rate; latency counts from the intended start, so a stalled server cannot hide queueing).
 */
final class HttpLoad implements AutoCloseable {

    private final ExecutorService executor = Executors.newFixedThreadPool(2, LoadMain.daemon("load-http"));
    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .executor(executor)
            .build();

    /** Keeps {@code connections} requests in flight for {@code duration}. */
    Traffic closed(
            Supplier<HttpRequest> requests, Predicate<HttpResponse<byte[]>> valid, int connections, Duration duration)
            throws InterruptedException {
        LatencyRecorder recorder = new LatencyRecorder();
        long end = System.nanoTime() + duration.toNanos();
        CountDownLatch done = new CountDownLatch(connections);
        for (int i = 0; i < connections; i++) {
            loop(requests, valid, recorder, end, done);
        }
        if (!done.await(duration.toSeconds() + 60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("closed-loop requests did not finish within 60 s of the end");
        }
        return recorder.traffic();
    }

    private void loop(
            Supplier<HttpRequest> requests,
            Predicate<HttpResponse<byte[]>> valid,
            LatencyRecorder recorder,
            long end,
            CountDownLatch done) {
        if (System.nanoTime() >= end) {
            done.countDown();
            return;
        }
        HttpRequest request = requests.get();
        long start = System.nanoTime();
        client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).whenComplete((response, failure) -> {
            record(recorder, request, valid, start, response, failure);
            loop(requests, valid, recorder, end, done);
        });
    }

    /** Starts {@code perSecond} requests a second for {@code duration}, then waits for the answers. */
    Traffic open(
            Supplier<HttpRequest> requests, Predicate<HttpResponse<byte[]>> valid, double perSecond, Duration duration)
            throws InterruptedException {
        LatencyRecorder recorder = new LatencyRecorder();
        long intervalNanos = (long) (1_000_000_000L / perSecond);
        long count = (long) (perSecond * duration.toNanos() / 1_000_000_000L);
        CountDownLatch done = new CountDownLatch((int) count);
        long start = System.nanoTime();
        for (long i = 0; i < count; i++) {
            long intended = start + i * intervalNanos;
            long wait = intended - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            HttpRequest request = requests.get();
            client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).whenComplete((response, failure) -> {
                record(recorder, request, valid, intended, response, failure);
                done.countDown();
            });
        }
        if (!done.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("open-model requests did not finish within 60 s of the end");
        }
        return recorder.traffic();
    }

    private static void record(
            LatencyRecorder recorder,
            HttpRequest request,
            Predicate<HttpResponse<byte[]>> valid,
            long start,
            HttpResponse<byte[]> response,
            Throwable failure) {
        long latency = System.nanoTime() - start;
        if (failure == null) {
            if (valid.test(response)) {
                recorder.success(latency, response.body().length);
            } else {
                recorder.error();
            }
            return;
        }
        Throwable cause =
                failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof HttpTimeoutException) {
            recorder.timeout(request.timeout().map(Duration::toNanos).orElse(latency));
        } else {
            recorder.error();
        }
    }

    /**
     * Closes every connection now (timed-out requests leave theirs open) with {@code HttpClient.shutdownNow()},
     * called reflectively: it exists from JDK 21 and this is compiled for 17. False where it does not exist.
     */
    boolean closeConnections() {
        try {
            HttpClient.class
                    .getMethod("shutdownNow")
                    .invoke(client); // the public type: the implementation class is not exported
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("HttpClient.shutdownNow failed", e);
        }
    }

    @Override
    public void close() {
        closeConnections();
        executor.shutdownNow();
    }

    /** Latencies (microseconds, up to 60 s) and outcome counts; every field is guarded by its monitor. */
    private static final class LatencyRecorder {

        private final Histogram histogram = new Histogram(60_000_000L, 3);
        private long ok;
        private long errors;
        private long timeouts;
        private long bytes;

        synchronized void success(long latencyNanos, long bodyBytes) {
            histogram.recordValue(Math.max(1, Math.min(latencyNanos / 1000, 60_000_000L)));
            ok++;
            bytes += bodyBytes;
        }

        synchronized void error() {
            errors++;
        }

        /** A timeout also counts as a sample at the timeout, so p99 cannot hide it. */
        synchronized void timeout(long timeoutNanos) {
            histogram.recordValue(Math.min(timeoutNanos / 1000, 60_000_000L));
            timeouts++;
        }

        synchronized Traffic traffic() {
            return new Traffic(
                    ok, bytes, errors, timeouts, percentileMillis(50), percentileMillis(99), percentileMillis(99.9));
        }

        private double percentileMillis(double percentile) {
            return histogram.getTotalCount() == 0 ? Double.NaN : histogram.getValueAtPercentile(percentile) / 1000.0;
        }
    }
}
