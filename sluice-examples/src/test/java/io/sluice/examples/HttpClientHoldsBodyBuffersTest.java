package io.sluice.examples;

import io.sluice.ReactiveFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Why {@link HttpTransfers#upload} reads owned chunks, not lent ones: the JDK {@code HttpClient}
 * keeps a request body buffer after {@code onNext} returns and asks for the next one before it has
 * written it, and nothing tells the publisher when it is done with a buffer. A loopback server
 * that reads nothing stalls the upload in the socket; the client still asks for the next buffer
 * while an earlier one has bytes left to write. Then the server reads the body, and the test
 * checks that it got the file's bytes.
 */
class HttpClientHoldsBodyBuffersTest {

    /** Far beyond what the socket buffers hold (the server's receive buffer is 64 KiB). */
    private static final long UPLOAD_BYTES = 16L * 1024 * 1024 + 5;

    @TempDir
    Path dir;

    @Test
    void theClientAsksForTheNextBufferWhileItStillHoldsAnUnwrittenOne() throws Exception {
        Path file = TestData.file(dir.resolve("upload.bin"), 21, UPLOAD_BYTES);
        CountDownLatch askedWhileHolding = new CountDownLatch(1);
        HttpClient client =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

        try (StallingServer server = new StallingServer(askedWhileHolding)) {
            HttpRequest request = HttpRequest.newBuilder(server.uri())
                    .PUT(HttpRequest.BodyPublishers.fromPublisher(
                            new WatchedBody(ReactiveFile.of(file).read(), askedWhileHolding), UPLOAD_BYTES))
                    .build();

            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());

            assertEquals(
                    0,
                    askedWhileHolding.getCount(),
                    "the client asked for another buffer while one it had received was not written yet");
            assertEquals(200, response.statusCode());
            assertEquals(
                    HexFormat.of().formatHex(TestData.sha256(file)) + " " + UPLOAD_BYTES,
                    response.body(),
                    "the server received the file's bytes");
        }
    }

    /**
     * The file's read publisher, passed through; each request from the client first looks at the
     * buffers the client received so far, and counts {@code askedWhileHolding} down if one of them
     * still has bytes left (the client's writer moves a buffer's position as it writes it).
     */
    private static final class WatchedBody implements Flow.Publisher<ByteBuffer> {
        private final Flow.Publisher<ByteBuffer> source;
        private final CountDownLatch askedWhileHolding;
        private final Queue<ByteBuffer> handedOver =
                new ConcurrentLinkedQueue<>(); // given to the client, maybe unwritten

        WatchedBody(Flow.Publisher<ByteBuffer> source, CountDownLatch askedWhileHolding) {
            this.source = source;
            this.askedWhileHolding = askedWhileHolding;
        }

        @Override
        public void subscribe(Flow.Subscriber<? super ByteBuffer> client) {
            source.subscribe(new Flow.Subscriber<ByteBuffer>() {
                @Override
                public void onSubscribe(Flow.Subscription subscription) {
                    client.onSubscribe(new Flow.Subscription() {
                        @Override
                        public void request(long n) {
                            handedOver.removeIf(buffer -> !buffer.hasRemaining());
                            if (!handedOver.isEmpty()) {
                                askedWhileHolding.countDown();
                            }
                            subscription.request(n);
                        }

                        @Override
                        public void cancel() {
                            subscription.cancel();
                        }
                    });
                }

                @Override
                public void onNext(ByteBuffer chunk) {
                    handedOver.add(chunk);
                    client.onNext(chunk);
                }

                @Override
                public void onError(Throwable failure) {
                    client.onError(failure);
                }

                @Override
                public void onComplete() {
                    client.onComplete();
                }
            });
        }
    }

    /**
     * One HTTP/1.1 exchange on 127.0.0.1 with a 64 KiB receive buffer: reads nothing until
     * {@code release} is counted down (or 30 s passed), then reads the request, digests its body and
     * replies {@code "<sha256 hex> <bytes>"}.
     */
    private static final class StallingServer implements AutoCloseable {
        private final ServerSocket listener = new ServerSocket();
        private final CompletableFuture<Void> served;

        StallingServer(CountDownLatch release) throws IOException {
            listener.setReceiveBufferSize(64 * 1024); // before bind: accepted sockets inherit it
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            served = CompletableFuture.runAsync(() -> {
                try (Socket socket = listener.accept()) {
                    release.await(30, TimeUnit.SECONDS);
                    serve(socket);
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
        }

        URI uri() {
            return URI.create("http://127.0.0.1:" + listener.getLocalPort() + "/upload");
        }

        private static void serve(Socket socket) throws IOException {
            InputStream in = new BufferedInputStream(socket.getInputStream());
            long contentLength = -1;
            for (String line = readLine(in); !line.isEmpty(); line = readLine(in)) {
                if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                    contentLength = Long.parseLong(
                            line.substring("content-length:".length()).strip());
                }
            }
            MessageDigest digest = FileDigests.newSha256();
            byte[] block = new byte[64 * 1024];
            long received = 0;
            while (received < contentLength) {
                int n = in.read(block, 0, (int) Math.min(block.length, contentLength - received));
                if (n < 0) {
                    break;
                }
                digest.update(block, 0, n);
                received += n;
            }
            byte[] reply =
                    (HexFormat.of().formatHex(digest.digest()) + " " + received).getBytes(StandardCharsets.US_ASCII);
            OutputStream out = socket.getOutputStream();
            out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + reply.length + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(reply);
            out.flush();
        }

        private static String readLine(InputStream in) throws IOException {
            StringBuilder line = new StringBuilder();
            for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
                if (c != '\r') {
                    line.append((char) c);
                }
            }
            return line.toString();
        }

        @Override
        public void close() throws Exception {
            listener.close();
            served.get(30, TimeUnit.SECONDS);
        }
    }
}
