package io.sluice.bench.providers;

import io.sluice.IoExecutors;
import io.sluice.ReadOptions;
import io.sluice.WriteOptions;
import io.sluice.bench.Op;
import io.sluice.bench.Provider;
import io.sluice.demand.Demand;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** Every provider by name, and the standard sets the profiles use. */
public final class Providers {

    private Providers() {}

    /** The peers reading (and copying) at sluice's 64 KiB read chunk instead of their 8 KiB defaults. */
    private static final List<String> LARGE_READ_PEERS =
            List.of("rio-64k", "vertx-64k", "vertx-pipe-64k", "spring-64k");

    /**
     * The comparison's rows in their table and legend order: sluice, the peers, then the baselines, each loop
     * with a per-thread reused buffer before the pooled one of the same work (a secondary row).
     */
    private static final List<String> COMPARISON = List.of(
            "sluice",
            "sluice-lent",
            "sluice-rw",
            "rio",
            "vertx",
            "vertx-pipe",
            "spring",
            "rio-64k",
            "vertx-64k",
            "vertx-pipe-64k",
            "spring-64k",
            "loop",
            "loop-gather",
            "loop-reused-staged-256k",
            "loop-staged-256k",
            "loop-reused-direct-64k",
            "loop-direct-64k",
            "loop-fresh-64k",
            "loop-transfer",
            "files-copy",
            "vt-loop",
            "vt-loop-gather",
            "vt-loop-reused-staged-256k",
            "vt-loop-staged-256k");

    /** sluice, the peers with their defaults and with 64 KiB reads, the baselines (virtual-thread ones on JDK 21+). */
    public static List<String> comparison() {
        return COMPARISON.stream()
                .filter(name -> !name.startsWith("vt-") || IoExecutors.virtualThreadsAvailable())
                .toList();
    }

    /**
     * Where {@code name} stands in a chart's legend: its place in the comparison (on any JDK), other
     * providers after it.
     */
    public static int legendOrder(String name) {
        int index = COMPARISON.indexOf(name);
        return index < 0 ? COMPARISON.size() : index;
    }

    /**
     * {@link #comparison()} without the 64 KiB peer rows and the virtual-thread staged loops, slower than those on
     * platform threads.
     */
    public static List<String> quick() {
        List<String> names = new ArrayList<>(comparison());
        names.removeAll(LARGE_READ_PEERS);
        names.removeAll(List.of("vt-loop-reused-staged-256k", "vt-loop-staged-256k"));
        return names;
    }

    /** The demand-strategy scenario: sluice writes under each strategy, against the baselines. */
    public static List<String> demandScenario() {
        return List.of(
                "sluice",
                "sluice-fixed-16-4",
                "sluice-fixed-1024-256",
                "sluice-one-by-one",
                "sluice-unbounded",
                "loop",
                "loop-gather",
                "loop-reused-staged-256k",
                "loop-staged-256k");
    }

    /** The hard byte bound ({@code withMaxItemBytes}) against the default on the write cells. */
    public static List<String> hardBound() {
        return List.of("sluice", "sluice-max-item-1k", "sluice-max-item-64k", "loop-gather");
    }

    /**
     * The read path's choices: lent against owned chunks of several sizes, against the plain loops; its copies
     * also against the {@code transferTo} loop.
     */
    public static List<String> readChoices() {
        List<String> names = new ArrayList<>(
                List.of("sluice", "sluice-lent", "sluice-owned-16k", "sluice-owned-32k", "sluice-owned-128k"));
        names.addAll(LARGE_READ_PEERS);
        names.addAll(List.of(
                "loop",
                "loop-reused-direct-64k",
                "loop-direct-64k",
                "loop-fresh-64k",
                "loop-fresh-direct-64k",
                "loop-transfer"));
        return names;
    }

    /** Chunk sizes of the read: owned and lent chunks of 64, 128 and 256 KiB against the plain loops. */
    public static List<String> readChunkSizes() {
        return List.of(
                "sluice-owned-64k",
                "sluice-owned-128k",
                "sluice-owned-256k",
                "sluice-lent-64k",
                "sluice-lent-128k",
                "sluice-lent-256k",
                "loop",
                "loop-reused-direct-64k",
                "loop-reused-direct-256k",
                "loop-direct-64k",
                "loop-direct-256k");
    }

    /**
     * Small files, bound by per-operation cost: sluice with owned and lent chunks against the careful loops of
     * each operation (the targets' baselines) and the 8 KiB heap loop.
     */
    public static List<String> smallFiles() {
        return List.of(
                "sluice", "sluice-lent", "loop", "loop-reused-staged-256k", "loop-reused-direct-64k", "loop-transfer");
    }

    /** The memory stress case's writers. */
    public static List<String> stress() {
        return List.of("sluice", "rio", "vertx", "spring", "loop", "loop-gather");
    }

    public static Provider create(String name) {
        return switch (name) {
            case "sluice" ->
                new SluiceProvider(
                        name,
                        EnumSet.allOf(Op.class),
                        WriteOptions.defaults(),
                        ReadOptions.defaults(),
                        true); // the defaults for every operation; copies with copyTo
            case "sluice-rw" -> sluice(name, EnumSet.of(Op.COPY), WriteOptions.defaults(), ReadOptions.defaults());
            case "sluice-lent" -> // reads and write(read()) copies with lent chunks
                sluice(
                        name,
                        NamedProvider.READ_COPY,
                        WriteOptions.defaults(),
                        ReadOptions.defaults().withLentChunks());
            case "sluice-owned-16k", "sluice-owned-32k", "sluice-owned-64k", "sluice-owned-128k", "sluice-owned-256k" ->
                sluice(
                        name,
                        EnumSet.of(Op.READ),
                        WriteOptions.defaults(),
                        ReadOptions.defaults().withChunkSize(kib(name)));
            case "sluice-lent-64k", "sluice-lent-128k", "sluice-lent-256k" ->
                sluice(
                        name,
                        NamedProvider.READ_COPY,
                        WriteOptions.defaults(),
                        ReadOptions.defaults().withChunkSize(kib(name)).withLentChunks());
            case "sluice-fixed-16-4" -> writeOnly(name, WriteOptions.defaults().withDemand(Demand.fixed(16, 4)));
            case "sluice-fixed-1024-256" ->
                writeOnly(name, WriteOptions.defaults().withDemand(Demand.fixed(1024, 256)));
            case "sluice-one-by-one" -> writeOnly(name, WriteOptions.defaults().withDemand(Demand.oneByOne()));
            case "sluice-unbounded" -> writeOnly(name, WriteOptions.defaults().withDemand(Demand.unbounded()));
            // the hard byte bound, declared at the chunks' true size, and 64x too large
            case "sluice-max-item-1k" -> writeOnly(name, WriteOptions.defaults().withMaxItemBytes(1024));
            case "sluice-max-item-64k" ->
                writeOnly(name, WriteOptions.defaults().withMaxItemBytes(64 * 1024));
            case "rio", "rio-64k" -> new RioProvider(name);
            case "vertx", "vertx-pipe", "vertx-64k", "vertx-pipe-64k" -> new VertxProvider(name);
            case "spring", "spring-64k" -> new SpringProvider(name);
            default ->
                LoopProvider.named(name)
                        .orElseThrow(() -> new IllegalArgumentException("unknown provider '"
                                + name + "'; known: " + comparison() + ", " + demandScenario() + ", " + readChoices()
                                + ", "
                                + readChunkSizes()
                                + " and " + hardBound()));
        };
    }

    /** The chunk size a name such as {@code sluice-owned-128k} ends with, in bytes. */
    private static int kib(String name) {
        return Integer.parseInt(name.substring(name.lastIndexOf('-') + 1, name.length() - 1)) * 1024;
    }

    private static Provider writeOnly(String name, WriteOptions options) {
        return sluice(name, EnumSet.of(Op.WRITE), options, ReadOptions.defaults());
    }

    private static Provider sluice(String name, Set<Op> ops, WriteOptions writing, ReadOptions reading) {
        return new SluiceProvider(name, ops, writing, reading, false);
    }

    public static boolean isBaseline(String name) {
        return name.startsWith("loop") || name.startsWith("vt-") || name.equals("files-copy");
    }
}
