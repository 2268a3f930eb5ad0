package io.sluice.lab.spring;

import io.sluice.examples.spring.FilesClient;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * One way to move a file that the harness measures, in Spring's variant or sluice's. Each of
 * sluice's is compared with the Spring transfer its {@link #baseline()} names: the one of its own
 * kind, except {@link #SLUICE_STREAM}, which Spring has no counterpart for and which is compared with
 * {@link #SPRING_MULTIPART} (the same form, read as {@code PartEvent}s instead of a {@code FilePart}).
 * sluice's two downloads are both compared with Spring's {@code Resource}: {@link #SLUICE_DOWNLOAD}
 * is {@code FileResponses.write} asked for pooled chunks, {@link #SLUICE_ZERO_COPY} the same call
 * with its defaults (zero-copy on Reactor Netty).
 *
 * <p>sluice's {@link #SLUICE_MULTIPART}, {@link #SLUICE_STREAM} and {@link #SLUICE_RAW} store their file
 * {@linkplain #atomic atomically}: a temporary file forced to the disk, renamed over the target, and
 * the directory forced, before the answer. Spring's write the target in place and force nothing.
 * {@link #SLUICE_PLAIN_MULTIPART} and {@link #SLUICE_PLAIN_RAW} do Spring's work through sluice (no
 * forcing: {@code /sluice/plain} in the application), so they are the like-for-like pairs of
 * Spring's multipart and raw uploads; an atomic transfer's shortfall against its plain one is what
 * its durability costs.
 */
enum Transfer {
    SPRING_MULTIPART("spring", "multipart", "multipart", "spring", false),
    SLUICE_MULTIPART("sluice", "multipart", "multipart", "sluice", true),
    SLUICE_PLAIN_MULTIPART("sluice", "plain-multipart", "multipart", "sluice/plain", false),
    SLUICE_STREAM("sluice", "stream", "multipart", "sluice", true),
    SPRING_RAW("spring", "raw", "raw", "spring", false),
    SLUICE_RAW("sluice", "raw", "raw", "sluice", true),
    SLUICE_PLAIN_RAW("sluice", "plain-raw", "raw", "sluice/plain", false),
    SPRING_DOWNLOAD("spring", "download", "download", "spring", false),
    SLUICE_DOWNLOAD("sluice", "download", "download", "sluice/pooled", false),
    SLUICE_ZERO_COPY("sluice", "zero-copy", "download", "sluice", false);

    final String variant; // spring or sluice
    final String kind; // multipart, plain-multipart, stream, raw, plain-raw, download or zero-copy
    final String against; // the kind of Spring's transfer this one is compared with
    final String prefix; // the application's path prefix
    final boolean atomic; // an upload stored by atomic replace, with sync; Spring's force nothing

    Transfer(String variant, String kind, String against, String prefix, boolean atomic) {
        this.variant = variant;
        this.kind = kind;
        this.against = against;
        this.prefix = prefix;
        this.atomic = atomic;
    }

    boolean upload() {
        return !against.equals("download");
    }

    /**
     * Whether this upload is compared with a Spring upload of another kind: sluice's stream with
     * Spring's multipart. A plain transfer is its kind without sync, so not another kind.
     */
    boolean paired() {
        return upload() && !kind.equals(against) && !kind.equals("plain-" + against);
    }

    /** The label in the raw results: {@code spring-raw}, {@code sluice-stream}... */
    String label() {
        return variant + "-" + kind;
    }

    /** The label of the Spring transfer this one is compared with (for Spring's, its own). */
    String baseline() {
        return "spring-" + against;
    }

    /**
     * The transfers {@code labels} names ({@code spring-download,sluice-download}), in this type's order; all of them if
     * it is empty.
     *
     * @throws IllegalArgumentException naming a label that is no transfer's
     */
    static List<Transfer> named(String labels) {
        if (labels.isBlank()) {
            return List.of(values());
        }
        List<String> wanted = List.of(labels.split(","));
        for (String label : wanted) {
            if (Arrays.stream(values()).noneMatch(transfer -> transfer.label().equals(label))) {
                throw new IllegalArgumentException("no transfer " + label + "; known: "
                        + Arrays.stream(values()).map(Transfer::label).toList());
            }
        }
        return Arrays.stream(values())
                .filter(transfer -> wanted.contains(transfer.label()))
                .toList();
    }

    /** sluice's transfers, uploads or downloads, in the order of the tables. */
    static List<Transfer> sluices(boolean uploads) {
        return Arrays.stream(values())
                .filter(transfer -> transfer.variant.equals("sluice") && transfer.upload() == uploads)
                .toList();
    }

    /**
     * Moves {@code source} once (stored as, or read from, {@code name}) and fails unless every byte
     * arrived: an upload's answer is the stored size, a download's body has the file's length.
     */
    void once(FilesClient client, String name, Path source, long size) throws IOException, InterruptedException {
        String answer = switch (kind) {
            case "multipart", "plain-multipart" -> check(client.uploadPart(prefix, name, source));
            case "stream" -> check(client.uploadStreamedPart(name, source));
            case "raw", "plain-raw" -> check(client.uploadRaw(prefix, name, source));
            default -> {
                FilesClient.Answer got = client.count(prefix, name);
                yield got.status() == 200 ? Long.toString(got.bodyBytes()) : "status " + got.status();
            }
        };
        if (!answer.equals(Long.toString(size))) {
            throw new IOException(label() + " of " + name + ": expected " + size + " bytes, got " + answer);
        }
    }

    private static String check(FilesClient.Stored stored) {
        return stored.status() == 200 ? stored.body() : "status " + stored.status() + ": " + stored.body();
    }
}
