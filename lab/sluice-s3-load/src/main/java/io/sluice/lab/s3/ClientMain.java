package io.sluice.lab.s3;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * One sample's client JVM, started by {@link ClientJvm}: {@code K} concurrent transfers of one kind,
 * so that the JVM's CPU time and peak memory are the transfer's. It runs one unrecorded warm-up of
 * the same transfer at {@code --warm-size} per client, prints {@code WARM}, waits for {@code GO} on
 * stdin, then runs the recorded transfers ({@code --rounds} times in a row, 1 by default: every
 * client's transfer again once all have ended), checks that each moved every byte, prints one
 * {@code RESULT name=value ...} line ({@link ClientResult}) and waits for stdin to close before it
 * exits, so that the harness reads its figures (and stops its load meter) before the JVM is
 * reaped. A transfer that moved other bytes than the source's prints {@code WRONG what}, any other
 * failure {@code FAILED reason}; both exit with status 1. Arguments:
 * {@code --endpoint URI --bucket B --transfer LABEL --size BYTES --clients K --key PREFIX --work DIR}
 * {@code [--source FILE --warm-source FILE] [--warm-key KEY] [--md5 HEX] [--rounds R] [--heap-check-millis MS]}
 * {@code [--sdk-part-size BYTES --sdk-connections N]} (the {@link SdkTuning} of a {@code -tuned} transfer; the
 * SDK's defaults if left out) (an upload reads {@code --source}, a download reads the objects {@code PREFIX-i} and the warm-up object
 * {@code --warm-key}; with {@code --heap-check-millis}, the recorded transfers run under a
 * {@link MemoryProbe} that forces a full collection every {@code MS} ms). Between rounds, within the
 * timed span, each round's answers are checked as far as they tell without a request
 * ({@link TransferRun#verifyAnswer}) and its downloaded files deleted (the SDK's {@code toFile}
 * refuses an existing file); the last round is checked fully ({@link TransferRun#verify}).
 *
 * <p>Threading: the main thread runs everything; the transfers run on the SDK's and sluice's threads.
 */
public final class ClientMain {

    /** The most a warm-up moves per client. */
    static final long WARM_BYTES_AT_MOST = 32L << 20;

    private ClientMain() {}

    public static void main(String[] args) {
        PrintStream out = System.out;
        try {
            Map<String, String> options = Options.parse(args, SdkTuning.DEFAULT_OPTIONS);
            Transfer transfer = Transfer.byLabel(options.get("transfer"))
                    .orElseThrow(() -> new IllegalArgumentException("no transfer " + options.get("transfer")));
            S3Endpoint endpoint = new S3Endpoint(URI.create(options.get("endpoint")), options.get("bucket"));
            long size = Long.parseLong(options.get("size"));
            int clients = Integer.parseInt(options.get("clients"));
            Path work = Path.of(options.get("work"));
            String prefix = options.get("key");
            try (TransferRun run = new TransferRun(transfer, endpoint, SdkTuning.of(options))) {
                long warmSize = Math.min(size, WARM_BYTES_AT_MOST);
                List<TransferRun.Job> warm = jobs(
                        transfer,
                        clients,
                        prefix + "-warm",
                        options.get("warm-key"),
                        pathOrNull(options.get("warm-source")),
                        work,
                        "warm",
                        warmSize);
                together(run, warm, null);
                cleanUp(transfer, endpoint, warm);
                long idleHeap = MemoryProbe.idleHeapBytes();
                out.println("WARM");
                out.flush();
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                String go = in.readLine();
                if (!"GO".equals(go)) {
                    throw new IllegalStateException("expected GO, got " + go);
                }
                List<TransferRun.Job> recorded = jobs(
                        transfer, clients, prefix, null, pathOrNull(options.get("source")), work, "recorded", size);
                var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
                long cpuBefore = os.getProcessCpuTime();
                long began = System.nanoTime();
                MemoryProbe probe = MemoryProbe.start(Long.parseLong(options.getOrDefault("heap-check-millis", "0")));
                int rounds = Integer.parseInt(options.getOrDefault("rounds", "1"));
                List<String> eTags = List.of();
                try {
                    for (int round = 0; round < rounds; round++) {
                        if (round > 0) {
                            for (int i = 0; i < recorded.size(); i++) {
                                run.verifyAnswer(recorded.get(i), eTags.get(i), options.get("md5"));
                            }
                            removeDownloads(transfer, recorded);
                        }
                        eTags = start(run, recorded);
                    }
                } finally {
                    probe.close();
                }
                MemoryProbe.Peaks peaks = probe.peaks();
                double seconds = (System.nanoTime() - began) / 1e9;
                double cpuSeconds = (os.getProcessCpuTime() - cpuBefore) / 1e9;
                for (int i = 0; i < recorded.size(); i++) {
                    run.verify(recorded.get(i), eTags.get(i), options.get("md5"));
                }
                out.println(new ClientResult(
                                seconds,
                                cpuSeconds,
                                peaks.heapBytes(),
                                peaks.liveHeapBytes(),
                                idleHeap,
                                peaks.directBytes(),
                                peaks.directJdkBytes(),
                                peaks.directNettyBytes(),
                                run.boundBytes() < 0 ? -1 : run.boundBytes() * clients,
                                peaks.checkedLiveHeapBytes())
                        .line());
                out.flush();
                while (in.read() >= 0) {
                    // the harness closes stdin once it has read the result
                }
            }
            System.exit(0);
        } catch (Throwable failure) {
            Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                    ? failure.getCause()
                    : failure;
            out.println((cause instanceof TransferRun.WrongBytes ? "WRONG " + cause.getMessage() : "FAILED " + cause)
                    .replace('\n', ' '));
            out.flush();
            failure.printStackTrace();
            System.exit(1);
        }
    }

    /** Client {@code i}'s job: an upload reads {@code source} into {@code prefix-i}; a download reads {@code key-i} (or {@code fixedKey}) into a file of its own. */
    private static List<TransferRun.Job> jobs(
            Transfer transfer,
            int clients,
            String prefix,
            String fixedKey,
            Path source,
            Path work,
            String tag,
            long size) {
        List<TransferRun.Job> jobs = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            jobs.add(
                    switch (transfer.direction) {
                        case UPLOAD -> new TransferRun.Job(prefix + "-" + i, source, size);
                        case STREAM -> new TransferRun.Job(prefix + "-" + i, null, size);
                        case DOWNLOAD ->
                            new TransferRun.Job(
                                    fixedKey != null ? fixedKey : prefix + "-" + i,
                                    work.resolve("client-" + tag + "-" + i),
                                    size);
                    });
        }
        return jobs;
    }

    /** Runs every job at once and waits for all: the ETags they were answered with, in the jobs' order. */
    private static List<String> start(TransferRun run, List<TransferRun.Job> jobs) {
        List<CompletableFuture<String>> running = new ArrayList<>();
        for (TransferRun.Job job : jobs) {
            running.add(run.start(job));
        }
        CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).join();
        return running.stream().map(CompletableFuture::join).toList();
    }

    private static void together(TransferRun run, List<TransferRun.Job> jobs, String md5) throws Exception {
        List<String> eTags = start(run, jobs);
        for (int i = 0; i < jobs.size(); i++) {
            run.verify(jobs.get(i), eTags.get(i), md5);
        }
    }

    /** Deletes the files a round of downloads wrote; an upload's next round overwrites its objects. */
    private static void removeDownloads(Transfer transfer, List<TransferRun.Job> jobs) throws java.io.IOException {
        if (!transfer.direction.stores()) {
            for (TransferRun.Job job : jobs) {
                Files.deleteIfExists(job.file());
            }
        }
    }

    /** Deletes what the warm-up stored or wrote, so the disk holds only the recorded sample's data. */
    private static void cleanUp(Transfer transfer, S3Endpoint endpoint, List<TransferRun.Job> jobs) throws Exception {
        try (var client = endpoint.plainClient()) {
            for (TransferRun.Job job : jobs) {
                if (transfer.direction.stores()) {
                    client.deleteObject(
                                    request -> request.bucket(endpoint.bucket()).key(job.key()))
                            .join();
                } else {
                    Files.deleteIfExists(job.file());
                }
            }
        }
    }

    private static Path pathOrNull(String path) {
        return path == null ? null : Path.of(path);
    }
}
