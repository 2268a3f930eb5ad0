package io.sluice.s3;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The test proxy holds what the tests that use it say it holds: every final answer from
 * {@link StallingProxy#holdAnswers()} on, on a connection kept alive from before as on a new one,
 * while an interim {@code 100 Continue} still passes so that a request waiting for it sends its body.
 */
class StallingProxyTest {

    static final String ANSWER = "HTTP/1.1 200 OK\r\n\r\nanswer";
    static final String CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n";

    ServerSocket server;
    StallingProxy proxy;

    /** A server that answers "ASK" at once, and "EXPECT" with 100 Continue, then, once "BODY" came, its answer. */
    @BeforeEach
    void start() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread thread = new Thread(this::serve, "fake-server");
        thread.setDaemon(true);
        thread.start();
        proxy = new StallingProxy(server.getLocalPort());
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        server.close();
    }

    private void serve() {
        try (Socket socket = server.accept()) {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            byte[] buffer = new byte[64];
            for (int count = in.read(buffer); count >= 0; count = in.read(buffer)) {
                String request = new String(buffer, 0, count, StandardCharsets.ISO_8859_1);
                if (request.equals("EXPECT")) {
                    out.write(CONTINUE.getBytes(StandardCharsets.ISO_8859_1));
                } else {
                    out.write(ANSWER.getBytes(StandardCharsets.ISO_8859_1)); // ASK, or EXPECT's BODY
                }
                out.flush();
            }
        } catch (IOException e) {
            // closed by the test
        }
    }

    private static void send(Socket socket, String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
    }

    private static String receive(Socket socket, int length) throws IOException {
        byte[] bytes = socket.getInputStream().readNBytes(length);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    private Socket connect() throws IOException {
        Socket socket =
                new Socket(InetAddress.getLoopbackAddress(), proxy.endpoint().getPort());
        socket.setSoTimeout(5_000);
        return socket;
    }

    @Test
    void anAnswerOnAConnectionKeptAliveFromBeforeTheHoldIsHeldUntilReleased() throws Exception {
        try (Socket client = connect()) {
            send(client, "ASK");
            assertEquals(ANSWER, receive(client, ANSWER.length()));
            Thread.sleep(100); // the proxy's reading thread now waits on the idle connection
            proxy.holdAnswers();

            send(client, "ASK");

            client.setSoTimeout(500);
            assertThrows(
                    SocketTimeoutException.class, () -> client.getInputStream().read(), "held");
            proxy.stallAfter(Long.MAX_VALUE);
            client.setSoTimeout(5_000);
            assertEquals(ANSWER, receive(client, ANSWER.length()));
        }
    }

    @Test
    void aHundredContinuePassesTheHoldSoTheBodyIsSentAndItsAnswerIsHeld() throws Exception {
        proxy.holdAnswers();
        try (Socket client = connect()) {
            send(client, "EXPECT");
            assertEquals(CONTINUE, receive(client, CONTINUE.length()));

            send(client, "BODY");

            client.setSoTimeout(500);
            assertThrows(
                    SocketTimeoutException.class, () -> client.getInputStream().read(), "held");
            proxy.stallAfter(Long.MAX_VALUE);
            client.setSoTimeout(5_000);
            assertEquals(ANSWER, receive(client, ANSWER.length()));
        }
    }
}
