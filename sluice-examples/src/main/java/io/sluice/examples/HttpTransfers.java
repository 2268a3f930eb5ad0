package io.sluice.examples;

import io.sluice.ReactiveFile;
import io.sluice.WriteOptions;
import io.sluice.http.FileBodyHandler;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

// spotless:off (the docs quote this file line for line, a test checks it: the layout is theirs)

/**
 * Example 3: upload and download files with the JDK {@link HttpClient}, never holding more than a
 * few chunks in memory.
 *
 * <ul>
 *   <li>Upload: a file's read publisher is a {@code Flow.Publisher<ByteBuffer>}, so
 *       {@link HttpRequest.BodyPublishers#fromPublisher(java.util.concurrent.Flow.Publisher, long)}
 *       takes it as it is; the content length is the file's size. The chunks are owned (the
 *       default read), not lent: the client queues each buffer in {@code onNext}, asks for the
 *       next one before it has written it, and never says when it is done with one, so no point
 *       exists at which a lent chunk could go back ({@code HttpClientHoldsBodyBuffersTest} shows
 *       the client asking for more while it holds an unwritten buffer).</li>
 *   <li>Download: {@link FileBodyHandler} writes the response body through sluice's file writer,
 *       with its bounded demand.</li>
 * </ul>
 *
 * <p>Run: {@code java io.sluice.examples.HttpTransfers put <url> <file>} or
 * {@code ... get <url> <file>}.
 */
public final class HttpTransfers {

    private HttpTransfers() {
    }

    /**
     * PUTs {@code file} to {@code target} with a {@code Content-Length}.
     *
     * @param client the client to send with
     * @param target where to upload
     * @param file the file to upload
     * @return the response, with the server's reply as a string
     */
    public static CompletableFuture<HttpResponse<String>> upload(HttpClient client, URI target, Path file) {
        long length;
        try {
            length = Files.size(file);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
        // owned chunks: the client keeps each buffer queued after onNext, and never says when it wrote it
        HttpRequest request = HttpRequest.newBuilder(target)
                .PUT(HttpRequest.BodyPublishers.fromPublisher(ReactiveFile.of(file).read(), length))
                .build();
        return client.sendAsync(request, HttpResponse.BodyHandlers.ofString());
    }

    /**
     * GETs {@code source} into {@code file} (created or truncated).
     *
     * @param client the client to send with
     * @param source what to download
     * @param file where to save it
     * @return the response, whose body is the number of bytes written
     */
    public static CompletableFuture<HttpResponse<Long>> download(HttpClient client, URI source, Path file) {
        HttpRequest request = HttpRequest.newBuilder(source).GET().build();
        return client.sendAsync(request, FileBodyHandler.to(file, WriteOptions.defaults()));
    }

    /**
     * Uploads or downloads one file.
     *
     * @param args {@code put|get <url> <file>}
     */
    public static void main(String[] args) {
        if (args.length != 3 || !(args[0].equals("put") || args[0].equals("get"))) {
            System.err.println("usage: HttpTransfers put|get <url> <file>");
            System.exit(2);
        }
        URI uri = URI.create(args[1]);
        Path file = Path.of(args[2]);
        HttpClient client = HttpClient.newHttpClient();
        try {
            if (args[0].equals("put")) {
                HttpResponse<String> response = upload(client, uri, file).join();
                System.out.println(response.statusCode() + " " + response.body());
            } else {
                HttpResponse<Long> response = download(client, uri, file).join();
                System.out.println(response.statusCode() + ": " + response.body() + " bytes to " + file);
            }
        } catch (UncheckedIOException e) {
            System.err.println(e.getCause());
            System.exit(1);
        }
    }
}
// spotless:on
