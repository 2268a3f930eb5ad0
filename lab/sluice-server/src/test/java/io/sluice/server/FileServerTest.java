package io.sluice.server;

import io.sluice.IoExecutors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server's contract on loopback, against every lane this JVM can run: lanes A, C and
 * C-unbounded always, lane B on JDK 21+ (on JDK 17 {@link #laneBRunsOnJdk21OrIsRefusedClearly}
 * checks the refusal instead).
 */
@Timeout(60)
class FileServerTest {

    @TempDir
    Path directory;

    static Stream<Lane> lanes() {
        List<Lane> lanes = new ArrayList<>(List.of(Lane.A, Lane.C, Lane.C_UNBOUNDED));
        if (IoExecutors.virtualThreadsAvailable()) {
            lanes.add(Lane.B);
        }
        return lanes.stream();
    }

    private FileServer start(Lane lane) throws Exception {
        return FileServer.start(ServerConfig.loopback(lane, directory).withPlatformThreads(16));
    }

    @Test
    void laneBRunsOnJdk21OrIsRefusedClearly() throws Exception {
        ServerConfig config = ServerConfig.loopback(Lane.B, directory);
        if (Runtime.version().feature() >= 21) {
            try (FileServer server = FileServer.start(config)) {
                assertEquals(
                        404,
                        RawHttp.request(server.port(), "GET", "/files/missing").status());
            }
        } else {
            UnsupportedOperationException refusal =
                    assertThrows(UnsupportedOperationException.class, () -> FileServer.start(config));
            assertTrue(
                    refusal.getMessage().startsWith("lane B needs virtual threads (JDK 21 or newer)"),
                    refusal.getMessage());
            assertTrue(refusal.getMessage().contains(Runtime.version().toString()), refusal.getMessage());
        }
    }

    @ParameterizedTest
    @MethodSource("lanes")
    void storesServesRangesAndDeletes(Lane lane) throws Exception {
        byte[] body = randomBytes(1_000_003, 1);
        try (FileServer server = start(lane)) {
            RawHttp.Answer put = RawHttp.put(server.port(), "/files/data.bin", body);
            assertEquals(201, put.status(), put.body());
            assertTrue(put.body().contains("\"sha256\":\"" + sha256(body) + "\""), put.body());
            assertTrue(put.body().contains("\"bytes\":" + body.length), put.body());

            RawHttp.Answer whole = get(server, "/files/data.bin", null);
            assertEquals(200, whole.status());
            assertArrayEquals(body, whole.bytes());

            RawHttp.Answer middle = get(server, "/files/data.bin", "bytes=70000-70099");
            assertEquals(206, middle.status());
            assertEquals("bytes 70000-70099/" + body.length, middle.header("Content-Range"));
            assertArrayEquals(slice(body, 70_000, 100), middle.bytes());

            RawHttp.Answer suffix = get(server, "/files/data.bin", "bytes=-10");
            assertArrayEquals(slice(body, body.length - 10, 10), suffix.bytes());
            RawHttp.Answer open = get(server, "/files/data.bin", "bytes=999990-");
            assertArrayEquals(slice(body, 999_990, body.length - 999_990), open.bytes());
            assertEquals(
                    416,
                    get(server, "/files/data.bin", "bytes=" + body.length + "-").status());

            RawHttp.Answer slow = get(server, "/files/data.bin?delay=50", null);
            assertArrayEquals(body, slow.bytes());

            assertEquals(
                    204,
                    RawHttp.request(server.port(), "DELETE", "/files/data.bin").status());
            assertEquals(
                    404,
                    RawHttp.request(server.port(), "GET", "/files/data.bin").status());
            assertEquals(
                    404,
                    RawHttp.request(server.port(), "DELETE", "/files/data.bin").status());
        }
    }

    @ParameterizedTest
    @MethodSource("lanes")
    void answersSeveralRequestsOnOneKeptAliveConnection(Lane lane) throws Exception {
        byte[] body = randomBytes(16 * 1024, 6);
        Files.write(directory.resolve("small.bin"), body);
        try (FileServer server = start(lane);
                RawHttp http = new RawHttp(server.port())) {
            for (int i = 0; i < 3; i++) {
                http.send("GET /files/small.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
                RawHttp.Answer answer = http.readAnswer();
                assertEquals(200, answer.status(), "request " + i);
                assertArrayEquals(body, answer.bytes(), "request " + i);
            }
            http.send("GET /files/missing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            assertEquals(404, http.readAnswer().status());
        }
    }

    @ParameterizedTest
    @MethodSource("lanes")
    void refusesBadNamesWith400AndAClearMessage(Lane lane) throws Exception {
        Files.writeString(directory.resolve("secret"), "not for clients");
        try (FileServer server = start(lane)) {
            int port = server.port();
            assertBadName(port, "/files/../secret", "path separator");
            assertBadName(port, "/files/..", "must not start with '.'");
            assertBadName(port, "/files/.sluice-0123.tmp", "must not start with '.'");
            assertBadName(port, "/files/a%20b", "U+0020");
            assertEquals(400, RawHttp.request(port, "GET", "/files/a%00b").status()); // Jetty: NUL
            assertBadName(port, "/files/" + "n".repeat(FileNames.MAX_LENGTH + 1), "the limit is 128");
            assertBadName(port, "/files/", "file name is empty");
            assertBadName(port, "/files/x?delay=soon", "delay must be a number");
            // Encoded separators ('/', '\\') are refused by Jetty's URI compliance before the handler.
            assertEquals(
                    400, RawHttp.request(port, "GET", "/files/%2Fetc%2Fpasswd").status());
            assertEquals(400, RawHttp.request(port, "PUT", "/files/..%2Fsecret").status());
            assertEquals(400, RawHttp.request(port, "PUT", "/files/a%5Cb").status());
            assertEquals("not for clients", Files.readString(directory.resolve("secret")));
            assertEquals(
                    404,
                    RawHttp.request(port, "GET", "/files/" + "n".repeat(FileNames.MAX_LENGTH))
                            .status(),
                    "a name of exactly 128 characters is valid (404: it does not exist)");
        }
    }

    @ParameterizedTest
    @MethodSource("lanes")
    void refusesUploadsBeyondTheLimitWith413AndStoresNothing(Lane lane) throws Exception {
        int limit = 64 * 1024;
        RecordingEvents events = new RecordingEvents();
        try (FileServer server = FileServer.start(ServerConfig.loopback(lane, directory)
                .withPlatformThreads(16)
                .withMaxUploadBytes(limit)
                .withEvents(events))) {
            byte[] body = randomBytes(limit + 1, 2);
            try (RawHttp http = new RawHttp(server.port())) {
                http.putHead("/files/declared.bin", body.length);
                RawHttp.Answer answer = http.readAnswer(); // refused from the header, before any body
                assertEquals(413, answer.status(), answer.body());
                assertTrue(answer.body().contains("limit of " + limit + " bytes"), answer.body());
            }
            try (RawHttp http = new RawHttp(server.port())) { // no length declared: counted while streaming
                http.send("PUT /files/chunked.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n"
                        + "Connection: close\r\n\r\n");
                int chunk = 8 * 1024;
                try {
                    for (int offset = 0; offset < 2 * limit; offset += chunk) {
                        http.send(Integer.toHexString(chunk) + "\r\n");
                        http.send(randomBytes(chunk, offset), 0, chunk);
                        http.send("\r\n");
                    }
                    http.send("0\r\n\r\n");
                } catch (IOException serverClosedFirst) {
                    // The server may answer 413 and close while we still send: whether the client sees
                    // the answer or a reset is up to TCP timing, so the server's own outcome is checked.
                }
                RecordingEvents.Outcome outcome = events.next();
                assertEquals("chunked.bin", outcome.name());
                assertFalse(outcome.stored());
                assertTrue(
                        outcome.cause() instanceof HttpProblem && ((HttpProblem) outcome.cause()).status() == 413,
                        "refused as too large: " + outcome.cause());
            }
            RawHttp.Answer exact = RawHttp.put(server.port(), "/files/exact.bin", new byte[limit]);
            assertEquals(201, exact.status(), "exactly the limit is allowed: " + exact.body());
        }
        assertEquals(List.of("exact.bin"), listing());
    }

    @ParameterizedTest
    @MethodSource("lanes")
    void aClientDisconnectingMidUploadLeavesNoPartialFile(Lane lane) throws Exception {
        RecordingEvents events = new RecordingEvents();
        Files.writeString(directory.resolve("kept.txt"), "old content");
        try (FileServer server = FileServer.start(
                ServerConfig.loopback(lane, directory).withPlatformThreads(16).withEvents(events))) {
            for (String name : List.of("kept.txt", "fresh.bin")) {
                byte[] part = randomBytes(256 * 1024, 3);
                RawHttp http = new RawHttp(server.port());
                http.putHead("/files/" + name, 4L * 1024 * 1024);
                http.send(part, 0, part.length);
                http.abort();
                RecordingEvents.Outcome outcome = events.next();
                assertEquals(name, outcome.name());
                assertFalse(outcome.stored(), "a cut upload must not be stored");
            }
        }
        assertEquals("old content", Files.readString(directory.resolve("kept.txt")));
        assertEquals(List.of("kept.txt"), listing(), "no partial file and no temporary left behind");
    }

    @ParameterizedTest
    @MethodSource("lanes")
    void twoConcurrentUploadsToOneNameLeaveOneCompleteBody(Lane lane) throws Exception {
        RecordingEvents events = new RecordingEvents();
        byte[] first = randomBytes(2 * 1024 * 1024, 4);
        byte[] second = randomBytes(2 * 1024 * 1024, 5);
        try (FileServer server = FileServer.start(ServerConfig.loopback(lane, directory)
                        .withPlatformThreads(16)
                        .withEvents(events));
                RawHttp one = new RawHttp(server.port());
                RawHttp two = new RawHttp(server.port())) {
            one.putHead("/files/same.bin", first.length);
            two.putHead("/files/same.bin", second.length);
            int step = 128 * 1024;
            for (int offset = 0; offset < first.length; offset += step) { // interleaved: both in flight
                one.send(first, offset, step);
                two.send(second, offset, step);
            }
            RawHttp.Answer answerOne = one.readAnswer();
            RawHttp.Answer answerTwo = two.readAnswer();
            assertEquals(201, answerOne.status(), answerOne.body());
            assertEquals(201, answerTwo.status(), answerTwo.body());
            assertTrue(answerOne.body().contains(sha256(first)), answerOne.body());
            assertTrue(answerTwo.body().contains(sha256(second)), answerTwo.body());
            assertTrue(events.next().stored());
            assertTrue(events.next().stored());
            byte[] stored = get(server, "/files/same.bin", null).bytes();
            String storedSha = sha256(stored);
            assertTrue(
                    storedSha.equals(sha256(first)) || storedSha.equals(sha256(second)),
                    "the stored body is one of the two uploads, never a mix");
        }
        assertEquals(List.of("same.bin"), listing());
    }

    private static void assertBadName(int port, String target, String expectedMessage) throws IOException {
        for (String method : List.of("GET", "PUT", "DELETE")) {
            RawHttp.Answer answer = RawHttp.request(port, method, target);
            assertEquals(400, answer.status(), method + " " + target + ": " + answer.body());
            assertTrue(
                    answer.body().contains(expectedMessage),
                    method + " " + target + ": expected '" + expectedMessage + "' in: " + answer.body());
        }
    }

    private List<String> listing() throws IOException {
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.map(path -> path.getFileName().toString())
                    .filter(name -> !name.equals("secret"))
                    .sorted()
                    .toList();
        }
    }

    private static RawHttp.Answer get(FileServer server, String target, String range) throws IOException {
        return RawHttp.request(server.port(), "GET", target, range == null ? "" : "Range: " + range + "\r\n");
    }

    static byte[] randomBytes(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    private static byte[] slice(byte[] bytes, int offset, int length) {
        byte[] slice = new byte[length];
        System.arraycopy(bytes, offset, slice, 0, length);
        return slice;
    }

    static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
