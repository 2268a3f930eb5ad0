package io.sluice.examples.spring;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.UUID;

/**
 * A client of {@link FilesApplication} on the JDK's {@link HttpClient} (HTTP/1.1), for its tests
 * and the load harness: uploads a file as a multipart form or a raw body, downloads a file (or one
 * range) while hashing it, never holding a body in memory. Bodies are sent from the file by
 * {@code BodyPublishers.ofFile}, in the client's default buffers ({@code jdk.httpclient.bufsize},
 * 16 KiB); how the server's reads cut them into {@code DataBuffer}s is Netty's choice.
 *
 * @param base the application's root, such as {@code http://127.0.0.1:8080}
 * @param http the client, shared by every request (thread-safe)
 */
public record FilesClient(URI base, HttpClient http) {

    /** A client of the application at {@code base}. */
    public static FilesClient of(URI base) {
        return new FilesClient(
                base,
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build());
    }

    /** A download's answer: its status, {@code Content-Range} (or null), the body's length and SHA-256. */
    public record Answer(int status, String contentRange, long bodyBytes, String sha256) {}

    /** An upload's answer: its status and body (the stored size in bytes, or an error). */
    public record Stored(int status, String body) {}

    /** Uploads {@code file} as the part {@code file} of a form to {@code /VARIANT/files/NAME} ({@code POST}). */
    public Stored uploadPart(String variant, String name, Path file) throws IOException, InterruptedException {
        String boundary = UUID.randomUUID().toString();
        String head = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + name
                + "\"\r\nContent-Type: application/octet-stream\r\n\r\n";
        return postForm(uri(variant, name), boundary, head, file);
    }

    /**
     * Uploads {@code file} as the part {@code file} of a form to {@code /sluice/stream/NAME}
     * ({@code POST}), after a form field {@code note} the server skips.
     */
    public Stored uploadStreamedPart(String name, Path file) throws IOException, InterruptedException {
        String boundary = UUID.randomUUID().toString();
        String head = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nskipped\r\n"
                + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\""
                + name + "\"\r\nContent-Type: application/octet-stream\r\n\r\n";
        return postForm(URI.create(base + "/sluice/stream/" + name), boundary, head, file);
    }

    /** POSTs a form whose parts before the file's content are {@code head}, ending after the file. */
    private Stored postForm(URI target, String boundary, String head, Path file)
            throws IOException, InterruptedException {
        String tail = "\r\n--" + boundary + "--\r\n";
        HttpRequest request = HttpRequest.newBuilder(target)
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(BodyPublishers.concat(
                        BodyPublishers.ofString(head), BodyPublishers.ofFile(file), BodyPublishers.ofString(tail)))
                .build();
        HttpResponse<String> response = http.send(request, BodyHandlers.ofString());
        return new Stored(response.statusCode(), response.body());
    }

    /** Uploads {@code file} as the raw body of a {@code PUT} to {@code /VARIANT/raw/NAME}. */
    public Stored uploadRaw(String variant, String name, Path file) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/" + variant + "/raw/" + name))
                .header("Content-Type", "application/octet-stream")
                .PUT(BodyPublishers.ofFile(file))
                .build();
        HttpResponse<String> response = http.send(request, BodyHandlers.ofString());
        return new Stored(response.statusCode(), response.body());
    }

    /** Downloads {@code /VARIANT/files/NAME}, with {@code Range: range} unless {@code range} is null. */
    public Answer download(String variant, String name, String range) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(variant, name)).GET();
        if (range != null) {
            request.header("Range", range);
        }
        return send(request.build(), sha256());
    }

    /** Downloads {@code /VARIANT/files/NAME} counting its bytes only (its {@code sha256} is empty): for load. */
    public Answer count(String variant, String name) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(variant, name)).GET().build(), null);
    }

    private URI uri(String variant, String name) {
        return URI.create(base + "/" + variant + "/files/" + name);
    }

    private Answer send(HttpRequest request, MessageDigest sha256) throws IOException, InterruptedException {
        HttpResponse<InputStream> response = http.send(request, BodyHandlers.ofInputStream());
        long bytes = 0;
        try (InputStream body = response.body()) {
            byte[] buffer = new byte[64 * 1024];
            for (int n; (n = body.read(buffer)) >= 0; ) {
                if (sha256 != null) {
                    sha256.update(buffer, 0, n);
                }
                bytes += n;
            }
        }
        return new Answer(
                response.statusCode(),
                response.headers().firstValue("Content-Range").orElse(null),
                bytes,
                sha256 == null ? "" : HexFormat.of().formatHex(sha256.digest()));
    }

    /** A new SHA-256 digest. */
    public static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
