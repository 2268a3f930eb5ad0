package io.sluice.examples;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A Jetty 12 server on 127.0.0.1 (random port) with two core handlers:
 * {@code PUT /upload} digests the request body and replies {@code "<sha256 hex> <bytes>"};
 * {@code GET /download} serves {@link #downloadBytes()} with a {@code Content-Length}.
 */
final class LoopbackHttpServer {

    /** What the server saw of the last upload. */
    record Upload(String sha256Hex, long bytes, long contentLengthHeader) {}

    private final byte[] downloadBytes;
    private final AtomicReference<Upload> lastUpload = new AtomicReference<>();
    private final Server server = new Server();
    private final ServerConnector connector = new ServerConnector(server);

    LoopbackHttpServer(byte[] downloadBytes) throws Exception {
        this.downloadBytes = downloadBytes;
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Routes());
        server.start();
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + connector.getLocalPort() + path);
    }

    byte[] downloadBytes() {
        return downloadBytes;
    }

    Upload lastUpload() {
        return lastUpload.get();
    }

    void stop() throws Exception {
        server.stop();
    }

    /** Blocking handlers (Jetty runs them on its pool), which is fine for a test server. */
    private final class Routes extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            String path = request.getHttpURI().getPath();
            if (request.getMethod().equals("PUT") && path.equals("/upload")) {
                Upload upload = digest(request);
                lastUpload.set(upload);
                response.setStatus(200);
                Content.Sink.write(response, true, upload.sha256Hex() + " " + upload.bytes(), callback);
                return true;
            }
            if (request.getMethod().equals("GET") && path.equals("/download")) {
                response.setStatus(200);
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, downloadBytes.length);
                response.write(true, ByteBuffer.wrap(downloadBytes).asReadOnlyBuffer(), callback);
                return true;
            }
            Response.writeError(request, response, callback, 404);
            return true;
        }

        private Upload digest(Request request) throws Exception {
            MessageDigest digest = FileDigests.newSha256();
            long bytes = 0;
            byte[] block = new byte[32 * 1024];
            try (InputStream body = Content.Source.asInputStream(request)) {
                for (int n = body.read(block); n >= 0; n = body.read(block)) {
                    digest.update(block, 0, n);
                    bytes += n;
                }
            }
            long contentLength = request.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH);
            return new Upload(HexFormat.of().formatHex(digest.digest()), bytes, contentLength);
        }
    }
}
