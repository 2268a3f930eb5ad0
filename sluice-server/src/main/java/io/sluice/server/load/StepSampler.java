package io.sluice.server.load;

import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Samples the server every 250 ms while a step is loaded: heap share and direct memory from
 * {@code /metrics}, RSS and threads from {@code /proc/PID/status}, and the kernel send-queue bytes
 * of its sockets ({@link SendQueueProbe}). Keeps the peaks; {@link #stop()} ends the window.
 */
final class StepSampler implements AutoCloseable {

    static final long PERIOD_MILLIS = 250;

    private final ServerProcess server;
    private final SendQueueProbe sendQueue;
    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(LoadMain.daemon("load-sampler"));
    private final AtomicBoolean started = new AtomicBoolean();
    // written by the timer thread only, read after stop() or for a table line (volatile)
    private volatile double peakHeapShare;
    private volatile double peakRssMiB;
    private volatile long lastThreads;
    private volatile long peakDirectBytes = -1;
    private volatile long peakSendQueueBytes = -1;

    StepSampler(ServerProcess server) {
        this.server = server;
        this.sendQueue = new SendQueueProbe(server.port());
    }

    void start() {
        if (started.compareAndSet(false, true)) {
            timer.scheduleWithFixedDelay(this::sample, 0, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    /** Ends the sampling window and waits for a sample in progress. */
    void stop() throws InterruptedException {
        timer.shutdown();
        timer.awaitTermination(10, TimeUnit.SECONDS);
    }

    private void sample() {
        long queued = sendQueue.sendQueueBytes();
        if (queued >= 0) {
            peakSendQueueBytes = Math.max(peakSendQueueBytes, queued);
        }
        Map<String, Long> status = server.procStatus();
        peakRssMiB = Math.max(peakRssMiB, Scenarios.mib(status.getOrDefault("VmRSS", 0L)));
        lastThreads = status.getOrDefault("Threads", lastThreads);
        Map<String, Long> metrics = server.metrics();
        Long used = metrics.get("heapUsedBytes");
        Long max = metrics.get("heapMaxBytes");
        if (used != null && max != null && max > 0) {
            peakHeapShare = Math.max(peakHeapShare, (double) used / max);
        }
        Long direct = metrics.get("directBytes");
        if (direct != null) {
            peakDirectBytes = Math.max(peakDirectBytes, direct);
        }
    }

    double peakHeapShare() {
        return peakHeapShare;
    }

    double peakRssMiB() {
        return peakRssMiB;
    }

    long lastThreads() {
        return lastThreads;
    }

    /** Peak direct memory in MiB, NaN if /metrics never answered. */
    double peakDirectMiB() {
        return peakDirectBytes < 0 ? Double.NaN : Scenarios.mib(peakDirectBytes);
    }

    /** Peak total send-queue MiB of the server's sockets, NaN where /proc/net/tcp cannot be read. */
    double peakSendQueueMiB() {
        return peakSendQueueBytes < 0 ? Double.NaN : Scenarios.mib(peakSendQueueBytes);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
