package io.sluice.lab.spring;

import io.sluice.examples.spring.FilesClient;
import io.sluice.lab.BuildInfo;
import io.sluice.lab.ByteSizes;
import io.sluice.lab.Load;
import io.sluice.lab.SampleOrder;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * Uploads and downloads against {@code FilesApplication}, Spring's variant against sluice's, from
 * this JVM over loopback to the application's (a child JVM it starts, or {@code --url} of a running
 * one started with {@code --sluice.stats=true}). A sample is every client moving the file, all
 * started together, the same number of times in a row each: once, or as many times as it takes the
 * clients together to move {@code --sample-bytes}, so that a sample of a small file lasts long
 * enough to be timed and to be judged quiet, and its figure is a rate over many requests rather
 * than one request's time. Every cell (size, clients) runs {@code --warmup} unrecorded samples and then
 * {@code --samples} recorded ones of every {@link Transfer}, interleaved ({@link SampleOrder}): the
 * warm-up samples of every transfer first, then sample 0 of every transfer, then sample 1 of every
 * transfer..., so that a drift of the machine over the cell hits every transfer alike. Before the
 * first recorded cell, an unrecorded warm-up pass runs every transfer once at the smallest and the
 * largest size, at each client count, so that no recorded cell runs on a young application; then
 * {@code sync} and a pause, so that the pass's write-back does not land in the first recorded cell.
 * Raw rows go to {@code uploads.csv} and {@code downloads.csv} in {@code --results}, the start and
 * the arguments to {@code run.txt} ({@link SpringReport} reads them all); the console gets each
 * cell's median MiB/s and the ratio sluice/Spring. With an application it started, the harness
 * deletes each upload sample's stored files once the sample is measured (every upload writes a new
 * file, and the disk holds one sample's uploads) and empties its storage ({@code --work}/storage)
 * after each cell; a running one's storage is left to its owner. Options (defaults):
 * {@code --sizes 1MiB,100MiB,1GiB --clients 1,10 --samples 5 --warmup 1 --sample-bytes 256MiB --transfers} (every
 * one, or labels such as {@code spring-download,sluice-download})
 * --jar sluice-examples-spring/target/sluice-examples-spring-0.1.0-SNAPSHOT-exec.jar
 * --server-jvm -Xmx1g --work RESULTS/work}.
 *
 * <p>Threading: the main thread runs the cells; a sample's clients run on a pool of their own and
 * only report back through their futures.
 */
public final class LoadHarness {

    /** How long the harness waits after the warm-up pass's {@code sync}. */
    private static final long SETTLE_MILLIS = 10_000;

    private final Map<String, String> options;
    private final Map<String, Map<String, List<Double>>> mibPerSecond =
            new LinkedHashMap<>(); // cell -> label -> samples

    private LoadHarness(Map<String, String> options) {
        this.options = options;
    }

    public static void main(String[] arguments) throws Exception {
        String[] args = BuildInfo.requireCommitted(arguments);
        Map<String, String> options = new TreeMap<>(Map.of(
                "sizes",
                "1MiB,100MiB,1GiB",
                "clients",
                "1,10",
                "samples",
                "5",
                "warmup",
                "1",
                "sample-bytes",
                "256MiB",
                "jar",
                "sluice-examples-spring/target/sluice-examples-spring-0.1.0-SNAPSHOT-exec.jar",
                "server-jvm",
                "-Xmx1g"));
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --option value, got " + args[i]);
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        if (!options.containsKey("results")) {
            throw new IllegalArgumentException("--results DIR is required");
        }
        Path results = Files.createDirectories(Path.of(options.get("results")));
        Files.writeString(results.resolve(SpringRun.ABOUT), SpringRun.about(Instant.now(), String.join(" ", args)));
        new LoadHarness(options).run();
    }

    private void run() throws Exception {
        Path results = Files.createDirectories(Path.of(options.get("results")));
        Path work = Files.createDirectories(
                Path.of(options.getOrDefault("work", results.resolve("work").toString())));
        Path storage = options.containsKey("url") ? null : Files.createDirectories(work.resolve("storage"));
        List<Long> sizes = Arrays.stream(options.get("sizes").split(","))
                .map(ByteSizes::parse)
                .toList();
        List<Integer> clientCounts = Arrays.stream(options.get("clients").split(","))
                .map(Integer::parseInt)
                .toList();
        List<Transfer> transfers = Transfer.named(options.getOrDefault("transfers", ""));
        Map<Long, Path> sources = new TreeMap<>(); // by size, each written once
        try (ServerUnderLoad server = storage == null
                        ? ServerUnderLoad.at(URI.create(options.get("url")))
                        : ServerUnderLoad.start(
                                Path.of(options.get("jar")),
                                storage,
                                Arrays.asList(options.get("server-jvm").split(" ")));
                PrintWriter uploads = csv(results.resolve("uploads.csv"));
                PrintWriter downloads = csv(results.resolve("downloads.csv"))) {
            long sampleBytes = ByteSizes.parse(options.get("sample-bytes"));
            Cell cell = new Cell(server, FilesClient.of(server.base()), storage, uploads, downloads, sampleBytes);
            for (long size : SampleOrder.warmUpSizes(sizes)) {
                for (int clients : clientCounts) {
                    System.out.printf(Locale.ROOT, "warm-up pass: %d B x%d%n", size, clients);
                    cell.run(source(work, size, sources), size, clients, SampleOrder.warmUpPass(transfers));
                }
            }
            settle();
            int warmup = Integer.parseInt(options.get("warmup"));
            int samples = Integer.parseInt(options.get("samples"));
            for (long size : sizes) {
                for (int clients : clientCounts) {
                    cell.run(source(work, size, sources), size, clients, SampleOrder.cell(transfers, warmup, samples));
                }
            }
        } finally {
            for (Path source : sources.values()) {
                Files.deleteIfExists(source);
            }
        }
        printRatios();
    }

    /**
     * Lets the disk settle after the warm-up pass: {@code sync} writes back the dirty pages its
     * uploads left, and a pause lets the kernel's write-back threads go idle, so that their work
     * does not fall into the first recorded samples (where the load guard counts it as other work).
     */
    private static void settle() throws InterruptedException {
        System.out.println("warm-up pass done: sync, then a " + SETTLE_MILLIS / 1000 + " s pause");
        try {
            new ProcessBuilder("sync").inheritIO().start().waitFor();
        } catch (IOException e) {
            System.out.println("sync could not be run (" + e.getMessage() + "): the pause alone");
        }
        Thread.sleep(SETTLE_MILLIS);
    }

    /** Runs cells against one application; used by the main thread only. */
    private final class Cell {

        private final ServerUnderLoad server;
        private final FilesClient client;
        private final Path storage; // null if the application is not the harness's
        private final PrintWriter uploads;
        private final PrintWriter downloads;
        private final long sampleBytes; // what a sample's clients move together at least

        Cell(
                ServerUnderLoad server,
                FilesClient client,
                Path storage,
                PrintWriter uploads,
                PrintWriter downloads,
                long sampleBytes) {
            this.server = server;
            this.sampleBytes = sampleBytes;
            this.client = client;
            this.storage = storage;
            this.uploads = uploads;
            this.downloads = downloads;
        }

        /** Runs {@code steps} in their order at one size and client count, recording the recorded ones. */
        void run(Path source, long size, int clients, List<SampleOrder.Step<Transfer>> steps) throws Exception {
            if (steps.stream().anyMatch(step -> !step.transfer().upload())) {
                prepareDownloads(client, source, size, clients);
            }
            int rounds = SampleOrder.rounds(sampleBytes, size, clients);
            for (SampleOrder.Step<Transfer> step : steps) {
                sample(step, source, size, clients, rounds);
                if (storage != null && step.transfer().upload()) {
                    for (int i = 0; i < clients; i++) {
                        for (int round = 0; round < rounds; round++) {
                            Files.deleteIfExists(storage.resolve(name(step.transfer(), size, i, round)));
                        }
                    }
                }
            }
            if (storage != null) {
                empty(storage);
            }
        }

        private void sample(SampleOrder.Step<Transfer> step, Path source, long size, int clients, int rounds)
                throws Exception {
            Transfer transfer = step.transfer();
            server.resetPeak();
            ServerUnderLoad.Stats before = server.stats();
            Load.Meter meter = new Load.Meter();
            long began = System.nanoTime();
            together(clients, clientIndex -> {
                for (int round = 0; round < rounds; round++) {
                    transfer.once(client, name(transfer, size, clientIndex, round), source, size);
                }
            });
            double seconds = (System.nanoTime() - began) / 1e9;
            ServerUnderLoad.Stats after = server.stats();
            long cpuNanos = after.cpuSince(before);
            Load load = meter.stop(
                    after.cpuAfterGcNanos() - before.cpuAfterGcNanos()); // the server's, its GC for after included
            if (!step.recorded()) {
                return;
            }
            double mib = size * (double) clients * rounds / (1024 * 1024) / seconds;
            mibPerSecond
                    .computeIfAbsent(size + " B x" + clients, cell -> new LinkedHashMap<>())
                    .computeIfAbsent(transfer.label(), label -> new ArrayList<>())
                    .add(mib);
            PrintWriter out = transfer.upload() ? uploads : downloads;
            out.printf(
                    Locale.ROOT,
                    "%s,%s,%s,%d,%d,%d,%.6f,%.3f,%.3f,%d,%d,%.2f,%.2f,%.3f,%d%n",
                    BuildInfo.commit(),
                    Runtime.version(),
                    transfer.label(),
                    size,
                    clients,
                    step.sample(),
                    seconds,
                    mib,
                    cpuNanos / 1e9,
                    after.heapAfterGcBytes(),
                    after.peakRssBytes(),
                    load.load1Before(),
                    load.load1After(),
                    load.othersBusy(),
                    rounds);
            out.flush();
            System.out.printf(
                    Locale.ROOT,
                    "%-16s %12d B x%-3d sample %d: %9.1f MiB/s%n",
                    transfer.label(),
                    size,
                    clients,
                    step.sample(),
                    mib);
        }
    }

    /** Stores the file each download client reads, through sluice's raw upload (not measured). */
    private static void prepareDownloads(FilesClient client, Path source, long size, int clients) throws Exception {
        together(
                clients,
                clientIndex -> Transfer.SLUICE_RAW.once(
                        client, name(Transfer.SLUICE_DOWNLOAD, size, clientIndex, 0), source, size));
    }

    /**
     * Each client stores each round's upload as its own file, so no two transfers write one target;
     * a download client reads its one file every round.
     */
    private static String name(Transfer transfer, long size, int client, int round) {
        return transfer.upload()
                ? transfer.label() + "-" + size + "-" + client + "-" + round
                : "download-" + size + "-" + client;
    }

    private interface ClientTask {
        void run(int client) throws Exception;
    }

    /** Runs {@code task} for clients 0..n-1 at once and returns when all have ended; rethrows a failure. */
    private static void together(int clients, ClientTask task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                int client = i;
                running.add(pool.submit(() -> {
                    start.await();
                    task.run(client);
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> one : running) {
                one.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private void printRatios() {
        System.out.println("median MiB/s per cell, and sluice / Spring:");
        mibPerSecond.forEach((cell, byLabel) -> {
            for (Transfer transfer : Transfer.values()) {
                List<Double> sluice = byLabel.get(transfer.label());
                if (transfer.variant.equals("sluice") && sluice != null) {
                    double spring = median(byLabel.getOrDefault(transfer.baseline(), List.of(Double.NaN)));
                    System.out.printf(
                            Locale.ROOT,
                            "%-22s %-16s / %-16s spring %9.1f  sluice %9.1f  ratio %5.2f%n",
                            cell,
                            transfer.label(),
                            transfer.baseline(),
                            spring,
                            median(sluice),
                            median(sluice) / spring);
                }
            }
        });
    }

    /** Deletes what a cell stored, so the disk holds one cell's files at a time (size x clients). */
    private static void empty(Path storage) throws IOException {
        try (Stream<Path> files = Files.list(storage)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.delete(file);
            }
        }
    }

    private static double median(List<Double> samples) {
        List<Double> sorted = samples.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static PrintWriter csv(Path file) throws IOException {
        PrintWriter out = new PrintWriter(Files.newBufferedWriter(file));
        out.println(Sample.HEADER);
        return out;
    }

    /** A file of {@code size} pseudo-random bytes in {@code work}, written once and kept in {@code sources}. */
    private static Path source(Path work, long size, Map<Long, Path> sources) throws IOException {
        Path existing = sources.get(size);
        if (existing != null) {
            return existing;
        }
        Path file = work.resolve("source-" + size);
        sources.put(size, file);
        byte[] block = new byte[1024 * 1024];
        Random random = new Random(size);
        try (OutputStream out = Files.newOutputStream(file)) {
            for (long left = size; left > 0; left -= block.length) {
                random.nextBytes(block);
                out.write(block, 0, (int) Math.min(block.length, left));
            }
        }
        return file;
    }
}
