package io.sluice.server.load;

import io.sluice.lab.Load;
import io.sluice.server.Lane;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Runs scenarios A1, A2 and B: one fresh server JVM per lane and step, pinned to {@code serverCpu} unless null;
 * A1 and A2 run on {@code wrk} when present, else on the JDK {@code HttpClient}.
 */
record Scenarios(Scale scale, Path workDirectory, String serverCpu, Optional<WrkLoad> wrk) {

    static final int SMALL_FILE_BYTES = 16 * 1024;
    static final int PUT_BYTES = 1024 * 1024;
    static final long DELAY_MILLIS = 100;
    private static final double MIB = 1024.0 * 1024.0;
    /** B's ramp gives up here (lab/results/2026-11-23-server/README.md). */
    private static final long RAMP_MAX_MILLIS = 20_000;

    /** A1 (fast 16 KiB GETs, closed loop) or A2 (the same GET behind 100 ms of simulated slow storage). */
    Row closedLoop(String scenario, Lane lane, int connections) throws Exception {
        String target = scenario.equals("A1") ? "/files/small.bin" : "/files/small.bin?delay=" + DELAY_MILLIS;
        Path directory = freshDirectory(scenario, lane);
        try (ServerProcess server = start(lane, directory);
                HttpLoad load = new HttpLoad();
                StepSampler sampler = new StepSampler(server)) {
            Predicate<HttpResponse<byte[]>> valid =
                    response -> response.statusCode() == 200 && response.body().length == SMALL_FILE_BYTES;
            HttpRequest request = HttpRequest.newBuilder(server.uri(target))
                    .timeout(scale.requestTimeout())
                    .build();
            WarmUp.Slice closedLoop = length -> wrk.isPresent()
                    ? wrk.get()
                            .closed(server.uri(target), connections, length, scale.requestTimeout(), SMALL_FILE_BYTES)
                    : load.closed(() -> request, valid, connections, length);
            WarmUp.Outcome warmUp = WarmUp.run(closedLoop, scale.warmUpMin(), scale.warmUpMax());
            Window window = Window.open(server, sampler);
            long start = System.nanoTime();
            Traffic traffic = closedLoop.run(scale.runTime());
            double seconds = (System.nanoTime() - start) / 1e9;
            Spent spent = window.close(traffic.bodyBytes());
            // A live server that answered nothing is stuck: keep its threads for whoever reads the table.
            String note = warmUp.describe()
                    + (traffic.ok() == 0 && server.alive()
                            ? "; no answers: "
                                    + server.jcmdToFile(
                                            "Thread.print", "sluice-stall-" + scenario + "-" + lane.flag() + "-")
                            : "");
            return row(scenario, connections + " conn", lane, traffic, seconds, server, spent, null, note);
        }
    }

    /** B: slow clients hold connections while open-model fast GETs and verified 1 MiB PUTs measure the rest. */
    List<Row> b(Lane lane) throws Exception {
        Path directory = freshDirectory("B", lane);
        writeRandom(directory.resolve("big.bin"), scale.slowFileBytes(), 2);
        byte[] putBody = new byte[PUT_BYTES];
        new Random(3).nextBytes(putBody);
        String putSha = SlowClients.sha256(putBody);
        try (ServerProcess server = start(lane, directory);
                HttpLoad load = new HttpLoad();
                SlowClients slow = new SlowClients();
                StepSampler sampler = new StepSampler(server)) {
            // Before the warm-up: a full GC may give heap back to the OS, and the load's RSS path
            // (idle, peak, drain) must not start from a heap this harness shrank.
            ServerProcess.LiveSet idleLiveSet = server.forcedGcLiveSet();
            HttpRequest warmUp = HttpRequest.newBuilder(server.uri("/files/small.bin"))
                    .timeout(scale.requestTimeout())
                    .build();
            load.closed(() -> warmUp, response -> true, 8, scale.warmUpMin()); // JIT warm-up, discarded
            Window window = Window.open(server, sampler);
            for (int i = 0; i < scale.slowReaders(); i++) {
                slow.startReader(server.port(), "/files/big.bin");
            }
            for (int i = 0; i < scale.slowWriters(); i++) {
                slow.startWriter(server.port(), "/files/slow-" + i + ".bin", scale.slowUploadBytes(), 100 + i);
            }
            SlowClientRamp.Outcome ramp =
                    SlowClientRamp.await(new SendQueueProbe(server.port())::sendQueueBytes, RAMP_MAX_MILLIS);
            HttpRequest get = HttpRequest.newBuilder(server.uri("/files/small.bin"))
                    .timeout(scale.requestTimeout())
                    .build();
            int[] counter = {0}; // read and written by the PUT thread only
            FutureTask<Traffic> puts = new FutureTask<>(() -> load.open(
                    () -> HttpRequest.newBuilder(server.uri("/files/put-" + (counter[0]++ % 8) + ".bin"))
                            .timeout(scale.requestTimeout().multipliedBy(2))
                            .PUT(HttpRequest.BodyPublishers.ofByteArray(putBody))
                            .build(),
                    response -> response.statusCode() == 201
                            && new String(response.body(), StandardCharsets.UTF_8).contains(putSha),
                    scale.putsPerSecond(),
                    scale.runTime().multipliedBy(2)));
            long start = System.nanoTime();
            new Thread(puts, "load-puts").start();
            Traffic getTraffic = load.open(
                    () -> get,
                    response -> response.statusCode() == 200 && response.body().length == SMALL_FILE_BYTES,
                    scale.fastGetsPerSecond(),
                    scale.runTime().multipliedBy(2));
            Traffic putTraffic = puts.get();
            double seconds = (System.nanoTime() - start) / 1e9;
            long movedBytes = getTraffic.bodyBytes()
                    + putTraffic.ok() * PUT_BYTES
                    + slow.bytesRead.get()
                    + slow.bytesWritten.get();
            Spent spent = window.close(movedBytes); // before the drain's forced GC joins the GC log
            String death = server.death();
            String died = death.isEmpty() ? "" : "server died: " + death;
            String note = (died.isEmpty() ? "" : died + "; ") + ramp.describe()
                    + "; slow uploads verified " + slow.uploadsVerified.get()
                    + "/" + scale.slowWriters() + ", slow-read MiB " + String.format("%.0f", slow.bytesRead.get() / MIB)
                    + (slow.clientErrors.get() > 0 ? ", slow-client errors " + slow.clientErrors.get() : "");
            Drain drain = drain(server, slow, load, idleLiveSet);
            return List.of(
                    row("B", "fast GET", lane, getTraffic, seconds, server, spent, drain, note),
                    row("B", "1 MiB PUT", lane, putTraffic, seconds, server, spent, drain, died));
        }
    }

    /** What the server spent over a measured window, with the sampler's peaks. */
    private record Spent(
            double idleRss,
            StepSampler.Peaks peaks,
            double heapAfterGc,
            double cpuSeconds,
            double cpuSecondsPerGib,
            double heapAllocatedMiBPerGib,
            Load load) {}

    /** The server's counters at the start of a measured window, with the sampler that watches it. */
    private record Window(
            ServerProcess server,
            StepSampler sampler,
            double idleRss,
            double cpuBefore,
            long allocatedBefore,
            int gcMark,
            Load.Meter load) {

        static Window open(ServerProcess server, StepSampler sampler) {
            Window window = new Window(
                    server,
                    sampler,
                    mib(server.procStatus().getOrDefault("VmRSS", 0L)),
                    server.cpuSeconds(),
                    server.heapAllocatedBytes(),
                    server.gcLog().pauses(),
                    new Load.Meter());
            sampler.start();
            return window;
        }

        /** Stops the sampler and reads the counters again; {@code movedBytes} of body crossed in the window. */
        Spent close(long movedBytes) throws InterruptedException {
            StepSampler.Peaks peaks = sampler.stop();
            OptionalLong gcPeak = server.gcLog().peakAfterBytes(gcMark);
            double cpu = server.cpuSeconds() - cpuBefore;
            Load machine = load.stop(Double.isNaN(cpu) ? 0 : (long) (cpu * 1e9)); // the server's CPU is the run's own
            double allocatedPerGib = heapAllocatedMiBPerGiB(allocatedBefore, server.heapAllocatedBytes(), movedBytes);
            return new Spent(
                    idleRss,
                    peaks,
                    gcPeak.isPresent() ? mib(gcPeak.getAsLong()) : Double.NaN,
                    cpu,
                    cpu / gib(movedBytes),
                    allocatedPerGib,
                    machine);
        }
    }

    private ServerProcess start(Lane lane, Path directory) throws IOException {
        return ServerProcess.start(lane, directory, scale.platformThreads(), scale.serverHeap(), serverCpu);
    }

    /** The drain: every client closes, RSS is sampled for {@link Drain#DRAIN_SECONDS}, then a forced full GC. */
    private static Drain drain(ServerProcess server, SlowClients slow, HttpLoad load, ServerProcess.LiveSet idle)
            throws InterruptedException {
        double atLoadEnd = rssMiB(server);
        slow.close();
        boolean httpClosed = load.closeConnections();
        double max = atLoadEnd;
        double last = atLoadEnd;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(Drain.DRAIN_SECONDS);
        while (System.nanoTime() < end && server.alive()) {
            Thread.sleep(StepSampler.PERIOD_MILLIS); // sampling period, not synchronisation
            double rss = rssMiB(server);
            if (!Double.isNaN(rss)) {
                last = rss;
                max = Math.max(max, rss);
            }
        }
        if (!server.alive()) {
            return new Drain(atLoadEnd, Double.NaN, Double.NaN, idle.mib(), Double.NaN, "server not running");
        }
        ServerProcess.LiveSet after = server.forcedGcLiveSet();
        String note = idle.failure().isEmpty() ? after.failure() : "live set: " + idle.failure();
        if (!httpClosed) {
            note = "HTTP client connections left open (no HttpClient.shutdownNow before JDK 21)"
                    + (note.isEmpty() ? "" : "; " + note);
        }
        if (after.mib() > idle.mib() + Gates.LIVE_SET_SLACK_MIB) {
            // what is still reachable, for whoever reads the failed gate
            note = server.jcmdToFile("GC.class_histogram", "sluice-live-B-") + (note.isEmpty() ? "" : "; " + note);
        }
        return new Drain(atLoadEnd, max, last, idle.mib(), after.mib(), note);
    }

    private static double rssMiB(ServerProcess server) {
        Long rss = server.procStatus().get("VmRSS");
        return rss == null ? Double.NaN : mib(rss);
    }

    private static Row row(
            String scenario,
            String step,
            Lane lane,
            Traffic traffic,
            double seconds,
            ServerProcess server,
            Spent spent,
            Drain drain,
            String note) {
        Map<String, Long> status = server.procStatus();
        StepSampler.Peaks peaks = spent.peaks();
        return new Row(
                scenario,
                step,
                lane,
                traffic.ok() / seconds,
                traffic.bodyBytes() / MIB / seconds,
                traffic.p50Millis(),
                traffic.p99Millis(),
                traffic.p999Millis(),
                traffic.timeouts(),
                traffic.errors(),
                spent.idleRss(),
                Math.max(mib(status.getOrDefault("VmHWM", 0L)), peaks.rssMiB()),
                peaks.heapShare(),
                spent.heapAfterGc(),
                peaks.directMiB(),
                peaks.sendQueueMiB(),
                peaks.threads() > 0 ? peaks.threads() : status.getOrDefault("Threads", 0L),
                spent.cpuSeconds(),
                spent.cpuSecondsPerGib(),
                spent.heapAllocatedMiBPerGib(),
                spent.load(),
                drain,
                note);
    }

    static double gib(long bytes) {
        return bytes / (MIB * 1024);
    }

    /**
     * MiB of heap allocated per GiB of body moved; NaN when a reading is missing (-1) or the counter fell (on
     * JDK 17 it sums live threads only, so a thread that ended takes its share away).
     */
    static double heapAllocatedMiBPerGiB(long allocatedBefore, long allocatedAfter, long movedBytes) {
        if (allocatedBefore < 0 || allocatedAfter < allocatedBefore) {
            return Double.NaN;
        }
        return mib(allocatedAfter - allocatedBefore) / gib(movedBytes);
    }

    private Path freshDirectory(String scenario, Lane lane) throws IOException {
        Path directory =
                Files.createDirectories(workDirectory.resolve(scenario + "-" + lane.flag() + "-" + System.nanoTime()));
        writeRandom(directory.resolve("small.bin"), SMALL_FILE_BYTES, 1);
        return directory;
    }

    static void writeRandom(Path file, long size, long seed) throws IOException {
        Random random = new Random(seed);
        byte[] block = new byte[64 * 1024];
        try (var out = Files.newOutputStream(file)) {
            for (long written = 0; written < size; written += block.length) {
                random.nextBytes(block);
                out.write(block, 0, (int) Math.min(block.length, size - written));
            }
        }
    }

    static double mib(long bytes) {
        return bytes / MIB;
    }
}
