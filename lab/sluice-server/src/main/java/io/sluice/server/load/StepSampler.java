package io.sluice.server.load;

import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Samples the server every 250 ms while a step is loaded ({@code /metrics}, {@code /proc/PID/status} and its
 * sockets' send queues) and keeps the peaks; {@link #stop()} ends the window.
 */
final class StepSampler implements AutoCloseable {

    static final long PERIOD_MILLIS = 250;

    private final ServerProcess server;
    private final SendQueueProbe sendQueue;
    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(LoadMain.daemon("load-sampler"));
    // written by the timer thread only, read by stop() after the timer ended (volatile)
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
        timer.scheduleWithFixedDelay(this::sample, 0, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** The peaks (threads: at the last sample, 0 if none read; NaN where never read). */
    record Peaks(double heapShare, double rssMiB, long threads, double directMiB, double sendQueueMiB) {}

    Peaks stop() throws InterruptedException {
        timer.shutdown();
        timer.awaitTermination(10, TimeUnit.SECONDS);
        return new Peaks(
                peakHeapShare,
                peakRssMiB,
                lastThreads,
                peakDirectBytes < 0 ? Double.NaN : Scenarios.mib(peakDirectBytes),
                peakSendQueueBytes < 0 ? Double.NaN : Scenarios.mib(peakSendQueueBytes));
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

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
