package io.sluice.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * HTTP/1.1 over a plain socket, so tests control exactly which bytes go out (unnormalised paths,
 * bodies cut short, interleaved uploads) and when.
 */
final class RawHttp implements AutoCloseable {

    record Answer(int status, String headers, byte[] bytes) {

        String body() {
            return new String(bytes, StandardCharsets.UTF_8);
        }

        String header(String name) {
            for (String line : headers.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }
    }

    private final Socket socket = new Socket();
    private final OutputStream out;
    private final InputStream in;

    RawHttp(int port) throws IOException {
        this(port, 0);
    }

    /**
     * As above with a fixed receive buffer (0: the kernel's default, autotuned), so a client that
     * reads slowly or stops reading holds the server back after a few MiB, not tens.
     */
    RawHttp(int port, int receiveBufferBytes) throws IOException {
        if (receiveBufferBytes > 0) {
            socket.setReceiveBufferSize(receiveBufferBytes); // before connect: it sets the window offered
        }
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        socket.setSoTimeout(20_000);
        out = socket.getOutputStream();
        in = socket.getInputStream();
    }

    void send(String head) throws IOException {
        out.write(head.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    void send(byte[] bytes, int offset, int length) throws IOException {
        out.write(bytes, offset, length);
        out.flush();
    }

    /** Sends {@code PUT} headers with a {@code Content-Length}; the body follows with {@link #send}. */
    void putHead(String target, long contentLength) throws IOException {
        send("PUT " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: " + contentLength
                + "\r\nConnection: close\r\n\r\n");
    }

    /** A request with no body, answered and closed. */
    static Answer request(int port, String method, String target) throws IOException {
        return request(port, method, target, "");
    }

    /** As above with extra header lines, each ending in CRLF. */
    static Answer request(int port, String method, String target, String headers) throws IOException {
        try (RawHttp http = new RawHttp(port)) {
            http.send(
                    method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers + "Connection: close\r\n\r\n");
            return http.readAnswer();
        }
    }

    /** A complete PUT with a declared length, answered and closed. */
    static Answer put(int port, String target, byte[] body) throws IOException {
        try (RawHttp http = new RawHttp(port)) {
            http.putHead(target, body.length);
            http.send(body, 0, body.length);
            return http.readAnswer();
        }
    }

    /** Reads status line, headers and a {@code Content-Length} body (or up to EOF). */
    Answer readAnswer() throws IOException {
        String head = readHead();
        int status = Integer.parseInt(head.substring(9, 12));
        long length = -1;
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Long.parseLong(
                        line.substring("content-length:".length()).trim());
            }
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (length >= 0) {
            body.write(in.readNBytes((int) length));
        } else {
            in.transferTo(body);
        }
        return new Answer(status, head, body.toByteArray());
    }

    /** The response body's bytes as they arrive, after {@link #readHead}. */
    InputStream input() {
        return in;
    }

    /** Reads the status line and headers, up to and including the empty line. */
    String readHead() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < end.length) {
            int next = in.read();
            if (next < 0) {
                throw new IOException("connection closed before the end of the headers: " + head);
            }
            head.write(next);
            matched = next == end[matched] ? matched + 1 : (next == '\r' ? 1 : 0);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    /** Closes abruptly (RST), as a client that dies mid-upload. */
    void abort() throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
