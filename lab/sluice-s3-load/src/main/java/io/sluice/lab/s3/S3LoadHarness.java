package io.sluice.lab.s3;

import io.sluice.lab.BuildInfo;
import io.sluice.lab.ByteSizes;
import io.sluice.lab.ChildJvm;
import io.sluice.lab.FileTrees;
import io.sluice.lab.Load;
import io.sluice.lab.SampleOrder;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * Moves files to and from S3Proxy ({@link S3ProxyMain}, a child JVM with a filesystem store in
 * {@code --work}) with sluice's transfers, the SDK's own and plain HTTP ({@link Transfer}), on loopback.
 * A sample is {@code K} concurrent transfers of one kind in a fresh client JVM ({@link ClientMain}), so
 * that its CPU time and peak memory are the transfer's, run as many times in a row as it takes the
 * clients together to move {@code --sample-bytes} ({@link SampleOrder#rounds}): a sample of a small
 * object then lasts long enough to be timed and judged quiet. Every cell (size, clients) runs
 * {@code --warmup} unrecorded samples and then {@code --samples} recorded ones of every transfer,
 * interleaved ({@link SampleOrder}); before the first, a warm-up pass runs every transfer once at the
 * smallest and the largest size, at each client count, so no recorded cell meets a young server.
 * Each row of {@code samples.csv} in {@code --results} ({@link S3Sample}) holds the client's
 * figures, the server JVM's CPU seconds over the recorded transfers and the machine's load
 * ({@link Load.Meter}); {@code run.txt} the start and the arguments. A sample that moved other bytes
 * than the source's fails the run; one whose client ran out of memory or failed otherwise is
 * recorded with that outcome. Each client uploads to, or downloads from, an object of its own; the
 * harness deletes each sample's objects and files once it is measured, so the disk holds one
 * sample's data (and a cell's download sources).
 *
 * <p>The live heap of the timed samples is read after ordinary collections, which leave the old
 * generation's garbage in place (see {@link MemoryProbe}); so, after a cell's timed samples, each
 * stream transfer (the ones whose memory is judged) also runs {@code --memory-samples} samples whose
 * client forces a full collection every {@value #HEAP_CHECK_MILLIS} ms and records the heap after
 * it, as rows of {@code memory.csv} with the columns of {@code samples.csv}: their live heap is
 * the checked one; their seconds and MiB/s include the pauses and are no speed figures.
 *
 * <p>Options (defaults): {@code --sizes 1MiB,100MiB,1GiB --clients 1,10 --samples 5 --warmup 1
 * --sample-bytes 256MiB --memory-samples 3 --transfers} (every one, or labels) {@code --server-heap 1g --client-jvm -Xmx1g
 * --work RESULTS/work --sdk-part-size 8MiB --sdk-connections 50} (the {@link SdkTuning} of the {@code -tuned}
 * transfers), and {@code --allow-dirty} for a trial from an uncommitted tree.
 *
 * <p>Threading: the main thread does everything; the clients are other processes.
 */
public final class S3LoadHarness {

    static final Map<String, String> DEFAULTS = Map.ofEntries(
            Map.entry("sizes", "1MiB,100MiB,1GiB"),
            Map.entry("clients", "1,10"),
            Map.entry("samples", "5"),
            Map.entry("warmup", "1"),
            Map.entry("memory-samples", "3"),
            Map.entry("sample-bytes", "256MiB"),
            Map.entry("transfers", ""),
            Map.entry("server-heap", "1g"),
            Map.entry("client-jvm", "-Xmx1g"),
            Map.entry("sdk-part-size", SdkTuning.DEFAULT_OPTIONS.get("sdk-part-size")),
            Map.entry("sdk-connections", SdkTuning.DEFAULT_OPTIONS.get("sdk-connections")));

    private static final String BUCKET = "sluice-load";

    /** How often a memory sample's client forces a full collection. */
    static final long HEAP_CHECK_MILLIS = 250;

    private final Map<String, String> options;
    private final Path work;
    private final PrintWriter samples; // samples.csv: the timed samples
    private final PrintWriter memory; // memory.csv: the memory samples
    private final S3Endpoint endpoint;
    private final S3AsyncClient admin; // prepares download sources, deletes objects
    private final ChildJvm server;
    private final Map<Long, Source> sources = new TreeMap<>(); // by size, each written once
    private final Map<Long, String> streamMd5s = new TreeMap<>(); // by size, each computed once

    /** A source file and the MD5 of its bytes (the ETag of an object stored in one piece). */
    private record Source(Path file, String md5) {}

    private S3LoadHarness(
            Map<String, String> options, Path work, PrintWriter samples, PrintWriter memory, ChildJvm server) {
        this.options = options;
        this.work = work;
        this.samples = samples;
        this.memory = memory;
        this.server = server;
        this.endpoint = new S3Endpoint(URI.create("http://127.0.0.1:" + server.port()), BUCKET);
        this.admin = endpoint.plainClient();
    }

    public static void main(String[] arguments) throws Exception {
        String[] args = BuildInfo.requireCommitted(arguments);
        run(args);
    }

    /** The harness on {@code args} (without {@code --allow-dirty}); returns the results folder. */
    static Path run(String[] args) throws Exception {
        Map<String, String> options = options(args);
        Path results = Files.createDirectories(Path.of(options.get("results")));
        Files.writeString(
                results.resolve(S3Run.ABOUT),
                S3Run.about(Instant.now(), String.join(" ", args), SdkTuning.of(options)));
        Path work = Files.createDirectories(
                Path.of(options.getOrDefault("work", results.resolve("work").toString())));
        Path store = emptied(work.resolve("store"));
        try (ChildJvm server = ChildJvm.main("S3Proxy", S3ProxyMain.class.getName())
                        .maxHeap(options.get("server-heap"))
                        .exitOnOutOfMemory()
                        .args(List.of(store.toString()))
                        .start();
                PrintWriter samples = new PrintWriter(Files.newBufferedWriter(results.resolve(S3Run.SAMPLES)));
                PrintWriter memory = new PrintWriter(Files.newBufferedWriter(results.resolve(S3Run.MEMORY)))) {
            server.awaitReady();
            samples.println(S3Sample.HEADER);
            memory.println(S3Sample.HEADER);
            S3LoadHarness harness = new S3LoadHarness(options, work, samples, memory, server);
            try {
                harness.measure();
            } finally {
                harness.admin.close();
                for (Source source : harness.sources.values()) {
                    Files.deleteIfExists(source.file());
                }
            }
        }
        return results;
    }

    /**
     * The options {@code args} sets over {@link #DEFAULTS}, checked: sizes, client counts, the
     * transfers and the SDK's tuning parse ({@link #transfers}), and {@code --results} is given.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    static Map<String, String> options(String[] args) {
        Map<String, String> options = Options.parse(args, DEFAULTS);
        if (!options.containsKey("results")) {
            throw new IllegalArgumentException("--results DIR is required");
        }
        sizes(options);
        clientCounts(options);
        ByteSizes.parse(options.get("sample-bytes"));
        transfers(options);
        for (String count : List.of("samples", "warmup", "memory-samples")) {
            if (Integer.parseInt(options.get(count)) < 0) {
                throw new IllegalArgumentException("--" + count + " must not be negative");
            }
        }
        return options;
    }

    /**
     * The transfers {@code --transfers} names, every one by default; the {@code -tuned} ones only on a
     * tuning other than the SDK's defaults, where they would repeat the default ones.
     *
     * @throws IllegalArgumentException for an unknown label, a tuning that does not parse, or a tuned
     *     transfer named on the SDK's defaults
     */
    static List<Transfer> transfers(Map<String, String> options) {
        List<Transfer> named = Transfer.named(options.get("transfers"));
        if (!SdkTuning.of(options).equals(SdkTuning.SDK_DEFAULTS)) {
            return named;
        }
        if (!options.get("transfers").isBlank() && named.stream().anyMatch(Transfer::tuned)) {
            throw new IllegalArgumentException("a -tuned transfer on the SDK's defaults repeats its default one: give"
                    + " --sdk-part-size or --sdk-connections other than 8MiB and 50");
        }
        return named.stream().filter(transfer -> !transfer.tuned()).toList();
    }

    static List<Long> sizes(Map<String, String> options) {
        return Arrays.stream(options.get("sizes").split(","))
                .map(ByteSizes::parse)
                .toList();
    }

    static List<Integer> clientCounts(Map<String, String> options) {
        return Arrays.stream(options.get("clients").split(","))
                .map(Integer::parseInt)
                .toList();
    }

    private void measure() throws Exception {
        admin.createBucket(request -> request.bucket(BUCKET)).join();
        List<Long> sizes = sizes(options);
        List<Integer> clientCounts = clientCounts(options);
        List<Transfer> transfers = transfers(options);
        for (long size : SampleOrder.warmUpSizes(sizes)) {
            for (int clients : clientCounts) {
                System.out.printf(Locale.ROOT, "warm-up pass: %s x%d%n", ByteSizes.format(size), clients);
                cell(size, clients, SampleOrder.warmUpPass(transfers));
            }
        }
        int warmup = Integer.parseInt(options.get("warmup"));
        int recorded = Integer.parseInt(options.get("samples"));
        List<Transfer> streams = transfers.stream()
                .filter(transfer -> transfer.direction == Transfer.Direction.STREAM)
                .toList();
        int memorySamples = Integer.parseInt(options.get("memory-samples"));
        for (long size : sizes) {
            for (int clients : clientCounts) {
                cell(size, clients, SampleOrder.cell(transfers, warmup, recorded));
                for (SampleOrder.Step<Transfer> step : SampleOrder.cell(streams, 0, memorySamples)) {
                    sample(step, size, clients, source(size), true);
                }
            }
        }
    }

    /** Runs {@code steps} at one size and client count; the downloads' objects exist for the cell's length. */
    private void cell(long size, int clients, List<SampleOrder.Step<Transfer>> steps) throws Exception {
        Source source = source(size);
        long warmSize = Math.min(size, ClientMain.WARM_BYTES_AT_MOST);
        boolean downloads =
                steps.stream().anyMatch(step -> !step.transfer().direction.stores());
        List<String> stored = new ArrayList<>();
        if (downloads) {
            for (int i = 0; i < clients; i++) {
                stored.add(put(downloadKey(size, i), source.file()));
            }
            stored.add(put(warmKey(size), source(warmSize).file()));
        }
        try {
            for (SampleOrder.Step<Transfer> step : steps) {
                sample(step, size, clients, source, false);
            }
        } finally {
            for (String key : stored) {
                delete(key);
            }
        }
    }

    /** Runs one sample; a memory sample's client forces full collections, and its row goes to {@code memory.csv}. */
    private void sample(SampleOrder.Step<Transfer> step, long size, int clients, Source source, boolean memorySample)
            throws Exception {
        Transfer transfer = step.transfer();
        String prefix = transfer.direction.stores() ? transfer.label + "-" + size : "download-" + size;
        List<String> args = new ArrayList<>(List.of(
                "--endpoint",
                endpoint.uri().toString(),
                "--bucket",
                BUCKET,
                "--transfer",
                transfer.label,
                "--size",
                Long.toString(size),
                "--clients",
                Integer.toString(clients),
                "--key",
                prefix,
                "--work",
                work.toString(),
                "--warm-key",
                warmKey(size),
                "--md5",
                transfer.direction == Transfer.Direction.STREAM ? streamMd5(size) : source.md5()));
        if (transfer.direction == Transfer.Direction.UPLOAD) {
            args.addAll(List.of(
                    "--source",
                    source.file().toString(),
                    "--warm-source",
                    source(Math.min(size, ClientMain.WARM_BYTES_AT_MOST)).file().toString()));
        }
        args.addAll(SdkTuning.of(options).args());
        int rounds = memorySample ? 1 : SampleOrder.rounds(ByteSizes.parse(options.get("sample-bytes")), size, clients);
        args.addAll(List.of("--rounds", Integer.toString(rounds)));
        if (memorySample) {
            args.addAll(List.of("--heap-check-millis", Long.toString(HEAP_CHECK_MILLIS)));
        }
        ClientResult result = null;
        String outcome = S3Sample.OK;
        Load load = Load.UNKNOWN;
        double serverCpu = Double.NaN;
        try (ClientJvm client =
                ClientJvm.start(List.of(options.get("client-jvm").split(" ")), args)) {
            client.awaitWarm();
            long serverBefore = server.cpuNanos();
            Load.Meter meter = new Load.Meter();
            client.go();
            try {
                result = client.awaitResult();
            } finally {
                long serverNanos = server.cpuNanos() - serverBefore;
                // The client is not reaped until close(): its CPU time counts as the measurement's through its result.
                load = meter.stop(serverNanos + (result == null ? 0 : (long) (result.cpuSeconds() * 1e9)));
                serverCpu = serverNanos / 1e9;
            }
        } catch (ClientJvm.ClientFailure failure) {
            outcome = failure.getMessage();
        } finally {
            cleanUp(transfer, prefix, clients);
        }
        if (!server.alive()) {
            throw new IOException("S3Proxy died: " + server.death());
        }
        if (!step.recorded()) {
            return;
        }
        double mib = result == null ? Double.NaN : size * (double) clients * rounds / (1024 * 1024) / result.seconds();
        S3Sample row = result == null
                ? new S3Sample(
                        BuildInfo.commit(),
                        Runtime.version().toString(),
                        transfer.label,
                        size,
                        clients,
                        step.sample(),
                        outcome,
                        Double.NaN,
                        Double.NaN,
                        Double.NaN,
                        serverCpu,
                        -1,
                        -1,
                        -1,
                        -1,
                        -1,
                        -1,
                        -1,
                        load,
                        rounds)
                : new S3Sample(
                        BuildInfo.commit(),
                        Runtime.version().toString(),
                        transfer.label,
                        size,
                        clients,
                        step.sample(),
                        outcome,
                        result.seconds(),
                        mib,
                        result.cpuSeconds(),
                        serverCpu,
                        result.peakHeapBytes(),
                        memorySample ? result.checkedLiveHeapBytes() : result.peakLiveHeapBytes(),
                        result.idleHeapBytes(),
                        result.peakDirectBytes(),
                        result.peakDirectJdkBytes(),
                        result.peakDirectNettyBytes(),
                        result.boundBytes(),
                        load,
                        rounds);
        PrintWriter to = memorySample ? memory : samples;
        to.println(row.row());
        to.flush();
        System.out.printf(
                Locale.ROOT,
                "%-28s %8s x%-3d %s %d: %s%n",
                transfer.label,
                ByteSizes.format(size),
                clients,
                memorySample ? "memory sample" : "sample",
                step.sample(),
                !row.ok()
                        ? "FAILED " + outcome
                        : memorySample
                                ? String.format(
                                        Locale.ROOT,
                                        "%9.1f MiB live heap added",
                                        row.attributableHeapBytes() / 1048576.0)
                                : String.format(Locale.ROOT, "%9.1f MiB/s", mib));
    }

    /** Deletes what a sample stored (its objects) or wrote (its clients' files); gone ones are fine. */
    private void cleanUp(Transfer transfer, String prefix, int clients) throws IOException {
        for (int i = 0; i < clients; i++) {
            if (transfer.direction.stores()) {
                delete(prefix + "-" + i);
                delete(prefix + "-warm-" + i);
            } else {
                Files.deleteIfExists(work.resolve("client-recorded-" + i));
                Files.deleteIfExists(work.resolve("client-warm-" + i));
            }
        }
    }

    private String put(String key, Path file) {
        admin.putObject(request -> request.bucket(BUCKET).key(key), AsyncRequestBody.fromFile(file))
                .join();
        return key;
    }

    private void delete(String key) {
        admin.deleteObject(request -> request.bucket(BUCKET).key(key)).join();
    }

    private static String downloadKey(long size, int client) {
        return "download-" + size + "-" + client;
    }

    private static String warmKey(long size) {
        return "download-warm-" + size;
    }

    /**
     * The server's store folder, created or emptied: it is the harness's own, and a run that stopped
     * halfway (or an earlier run in the same {@code --work}) left a bucket and objects in it.
     */
    private static Path emptied(Path store) throws IOException {
        FileTrees.delete(store);
        return Files.createDirectories(store);
    }

    /** The MD5 of a bursty source of {@code size}, computed once. */
    private String streamMd5(long size) {
        return streamMd5s.computeIfAbsent(size, BurstyPublisher::md5);
    }

    /** A file of {@code size} pseudo-random bytes in the work folder and its MD5, written once. */
    private Source source(long size) throws IOException, NoSuchAlgorithmException {
        Source existing = sources.get(size);
        if (existing != null) {
            return existing;
        }
        Path file = work.resolve("source-" + size);
        MessageDigest md5 = MessageDigest.getInstance("MD5");
        byte[] block = new byte[1024 * 1024];
        Random random = new Random(size);
        try (OutputStream out = Files.newOutputStream(file)) {
            for (long left = size; left > 0; left -= block.length) {
                random.nextBytes(block);
                int length = (int) Math.min(block.length, left);
                out.write(block, 0, length);
                md5.update(block, 0, length);
            }
        }
        Source source = new Source(file, HexFormat.of().formatHex(md5.digest()));
        sources.put(size, source);
        return source;
    }
}
