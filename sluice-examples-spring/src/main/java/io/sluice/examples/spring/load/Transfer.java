package io.sluice.examples.spring.load;

import io.sluice.examples.spring.FilesClient;

import java.io.IOException;
import java.nio.file.Path;

/** One way to move a file that the harness measures, in Spring's variant or sluice's. */
enum Transfer {
    SPRING_MULTIPART("spring", "multipart"),
    SLUICE_MULTIPART("sluice", "multipart"),
    SPRING_RAW("spring", "raw"),
    SLUICE_RAW("sluice", "raw"),
    SPRING_DOWNLOAD("spring", "download"),
    SLUICE_DOWNLOAD("sluice", "download");

    final String variant;  // the application's path prefix
    final String kind;     // multipart, raw or download: Spring's and sluice's of one kind are compared

    Transfer(String variant, String kind) {
        this.variant = variant;
        this.kind = kind;
    }

    boolean upload() {
        return !kind.equals("download");
    }

    /** The label in the raw results: {@code spring-raw}, {@code sluice-download}... */
    String label() {
        return variant + "-" + kind;
    }

    /**
     * Moves {@code source} once (stored as, or read from, {@code name}) and fails unless every byte
     * arrived: an upload's answer is the stored size, a download's body has the file's length.
     */
    void once(FilesClient client, String name, Path source, long size) throws IOException, InterruptedException {
        String answer = switch (kind) {
            case "multipart" -> check(client.uploadPart(variant, name, source));
            case "raw" -> check(client.uploadRaw(variant, name, source));
            default -> {
                FilesClient.Answer got = client.count(variant, name);
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
