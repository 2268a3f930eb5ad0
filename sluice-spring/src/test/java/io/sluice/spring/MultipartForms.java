package io.sluice.spring;

import org.springframework.core.ResolvableType;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.codec.multipart.FilePartEvent;
import org.springframework.http.codec.multipart.FormPartEvent;
import org.springframework.http.codec.multipart.PartEvent;
import org.springframework.http.codec.multipart.PartEventHttpMessageReader;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import reactor.core.publisher.Flux;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

/**
 * Multipart bodies for the parser's tests: random forms whose content is full of near-delimiters,
 * cut into buffers in random places (inside delimiters too), and what a parser made of them, as
 * plain values two parsers' results can be compared by.
 */
final class MultipartForms {

    static final ResolvableType PART_EVENT = ResolvableType.forClass(PartEvent.class);
    static final Duration WAIT = Duration.ofSeconds(30);

    private MultipartForms() {}

    /** A body and the boundary its Content-Type names. */
    record Body(String boundary, byte[] bytes) {
        MediaType contentType() {
            boolean token = boundary.chars().noneMatch(character -> "()<>@,;:\\\"/[]?={} \t".indexOf(character) >= 0);
            return new MediaType(
                    MediaType.MULTIPART_FORM_DATA, Map.of("boundary", token ? boundary : '"' + boundary + '"'));
        }

        MockServerHttpRequest request(Flux<DataBuffer> buffers) {
            return MockServerHttpRequest.post("/upload")
                    .contentType(contentType())
                    .body(buffers);
        }

        @Override
        public String toString() {
            String text = new String(bytes, StandardCharsets.ISO_8859_1);
            return "Body[" + boundary + ", " + bytes.length + " bytes: "
                    + (text.length() > 400 ? text.substring(0, 400) + "..." : text)
                            .replace("\r", "\\r")
                            .replace("\n", "\\n")
                    + "]";
        }
    }

    /** A part as a parser's events gave it. */
    record Part(String kind, Map<String, List<String>> headers, String filename, String value, String content) {
        @Override
        public String toString() {
            return "Part[" + kind + ", " + headers + ", " + filename + ", value " + shortened(value) + ", content "
                    + shortened(content) + "]";
        }

        private static String shortened(String text) {
            return text == null
                    ? null
                    : text.length() + " chars " + (text.length() > 80 ? text.substring(0, 80) + "..." : text);
        }
    }

    /** What a parser made of a body: the parts it completed, and how the events ended. */
    record Outcome(List<Part> parts, Class<? extends Throwable> error, String message) {
        Outcome comparable() {
            return new Outcome(parts, error, null);
        }
    }

    /** Reads a body with Spring's own reader. */
    static Flux<PartEvent> spring(MockServerHttpRequest request, MultipartLimits limits) {
        PartEventHttpMessageReader reader = new PartEventHttpMessageReader();
        reader.setMaxParts(limits.maxParts());
        reader.setMaxHeadersSize(limits.maxHeadersSize());
        reader.setMaxInMemorySize(limits.maxInMemorySize());
        reader.setMaxPartSize(limits.maxPartSize());
        reader.setHeadersCharset(limits.headersCharset());
        return reader.read(PART_EVENT, request, Map.of());
    }

    static MultipartLimits defaults() {
        return MultipartLimits.DEFAULTS;
    }

    /** Takes all events, releasing each buffer as it comes, and groups them into parts. */
    static Outcome outcome(Flux<PartEvent> events) {
        List<Part> parts = new ArrayList<>();
        List<PartEvent> current = new ArrayList<>();
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        Throwable[] error = new Throwable[1];
        events.doOnNext(event -> {
                    DataBuffer buffer = event.content();
                    byte[] bytes = new byte[buffer.readableByteCount()];
                    buffer.read(bytes);
                    DataBufferUtils.release(buffer);
                    content.writeBytes(bytes);
                    current.add(event);
                    if (event.isLast()) {
                        parts.add(part(current, content.toByteArray()));
                        current.clear();
                        content.reset();
                    }
                })
                .onErrorResume(failure -> {
                    error[0] = failure;
                    return Flux.empty();
                })
                .blockLast(WAIT);
        if (error[0] == null && !current.isEmpty()) {
            throw new AssertionError("the events completed inside a part: " + current);
        }
        return new Outcome(
                parts, error[0] == null ? null : error[0].getClass(), error[0] == null ? null : error[0].getMessage());
    }

    private static Part part(List<PartEvent> events, byte[] content) {
        PartEvent first = events.get(0);
        for (PartEvent event : events) {
            if (event.getClass() != first.getClass() || !event.headers().equals(first.headers())) {
                throw new AssertionError("a part's events differ: " + events);
            }
        }
        HttpHeaders headers = first.headers();
        Map<String, List<String>> copy = new LinkedHashMap<>(headers);
        if (first instanceof FormPartEvent form) {
            if (events.size() != 1) {
                throw new AssertionError("a form field in more than one event: " + events);
            }
            return new Part("form", copy, null, form.value(), null);
        }
        String kind = first instanceof FilePartEvent ? "file" : "other";
        String filename = first instanceof FilePartEvent file ? file.filename() : null;
        return new Part(kind, copy, filename, null, HexFormat.of().formatHex(content));
    }

    /** The body cut before each of {@code ends} (ascending, the last one its length). */
    static TrackedBuffers cut(org.springframework.core.io.buffer.DataBufferFactory factory, byte[] body, int[] ends) {
        return new TrackedBuffers(factory, body, ends, null);
    }

    /**
     * The body cut before each of {@code ends}, untracked: Spring's reader joins header buffers with
     * the factory, which takes only the factory's own buffers.
     */
    static Flux<DataBuffer> untracked(
            org.springframework.core.io.buffer.DataBufferFactory factory, byte[] body, int[] ends) {
        return Flux.range(0, ends.length).map(index -> {
            int start = index == 0 ? 0 : ends[index - 1];
            DataBuffer buffer = factory.allocateBuffer(ends[index] - start);
            return buffer.write(body, start, ends[index] - start);
        });
    }

    // ---- random forms ----

    /** A random boundary: a browser's, a short one, or one of 70 characters (RFC 2046's most). */
    static String boundary(Random random) {
        String chars = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=?";
        int length = switch (random.nextInt(4)) {
            case 0 -> 1 + random.nextInt(3);
            case 1 -> 70;
            default -> 10 + random.nextInt(30);
        };
        StringBuilder boundary = new StringBuilder(random.nextBoolean() ? "----WebKitFormBoundary" : "");
        while (boundary.length() < length) {
            boundary.append(chars.charAt(random.nextInt(chars.length())));
        }
        return boundary.substring(0, Math.max(1, Math.min(70, boundary.length())));
    }

    /** A random form: 0..{@code maxParts} parts of files, fields and others, near-delimiters in their content. */
    static Body form(Random random, int maxParts) {
        String boundary = boundary(random);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (random.nextInt(4) == 0) {
            body.writeBytes(ascii("a preamble, to be ignored\r\n-- -\r\n"));
        }
        body.writeBytes(ascii("--" + boundary));
        int parts = random.nextInt(maxParts + 1);
        for (int part = 0; part < parts; part++) {
            if (random.nextInt(8) == 0) {
                body.writeBytes(ascii(" \t ")); // transport padding, read as a header line without a colon
            }
            body.writeBytes(ascii("\r\n"));
            body.writeBytes(headers(random, part));
            body.writeBytes(ascii("\r\n"));
            body.writeBytes(content(random, boundary));
            body.writeBytes(ascii("\r\n--" + boundary));
        }
        body.writeBytes(ascii("--"));
        if (random.nextInt(3) == 0) {
            body.writeBytes(ascii("\r\nan epilogue, ignored too\r\n--" + boundary + "\r\n"));
        }
        return new Body(boundary, body.toByteArray());
    }

    private static byte[] headers(Random random, int part) {
        StringBuilder headers = new StringBuilder();
        int kind = random.nextInt(4);
        String disposition = "Content-Disposition: form-data; name=\"part" + part + "\"";
        switch (kind) {
            case 0, 1 -> {
                headers.append(disposition)
                        .append("; filename=\"file")
                        .append(part)
                        .append(".bin\"\r\n");
                if (random.nextBoolean()) {
                    headers.append("Content-Type: application/octet-stream\r\n");
                }
            }
            case 2 -> {
                headers.append(disposition).append("\r\n");
                if (random.nextBoolean()) {
                    headers.append("Content-Type: text/plain;charset=ISO-8859-1\r\n");
                }
            }
            default -> headers.append(disposition).append("\r\nContent-Type: application/json\r\n");
        }
        if (random.nextInt(4) == 0) {
            headers.append("X-Extra:    spaced  value \r\n");
        }
        if (random.nextInt(8) == 0) {
            headers.append("no colon on this line\r\n");
        }
        if (random.nextInt(8) == 0) {
            headers.append("X-Folded: first\r\n second line\r\n");
        }
        return ascii(headers.toString());
    }

    /** Content of a random size (rarely up to 300 KiB), full of bytes a delimiter search could trip on. */
    static byte[] content(Random random, String boundary) {
        int size = switch (random.nextInt(50)) {
            case 0 -> random.nextInt(300 * 1024);
            case 1, 2, 3 -> random.nextInt(70 * 1024);
            case 4, 5, 6, 7, 8, 9, 10, 11, 12, 13 -> random.nextInt(4096);
            default -> random.nextInt(80);
        };
        byte[] delimiter = ascii("\r\n--" + boundary);
        ByteArrayOutputStream content = new ByteArrayOutputStream(size + 100);
        while (content.size() < size) {
            switch (random.nextInt(10)) {
                case 0 -> content.write(delimiter, 0, random.nextInt(delimiter.length)); // a proper prefix
                case 1 -> content.writeBytes(ascii("--" + boundary)); // no CR LF before it
                case 2 -> {
                    byte[] near = delimiter.clone(); // one byte off
                    int at = random.nextInt(near.length);
                    near[at] = (byte) (near[at] ^ (1 + random.nextInt(255)));
                    content.writeBytes(near);
                }
                case 3 -> {
                    for (int i = random.nextInt(8); i >= 0; i--) {
                        content.write(delimiter[delimiter.length - 1]); // the last byte, repeated
                    }
                }
                case 4 -> content.writeBytes(ascii("\r\n\r\n--"));
                default -> {
                    byte[] noise = new byte[1 + random.nextInt(size < 200 ? 16 : 2048)];
                    random.nextBytes(noise);
                    content.writeBytes(noise);
                }
            }
        }
        byte[] bytes = Arrays.copyOf(content.toByteArray(), size);
        if (size > 0 && random.nextInt(4) == 0) {
            // ends with a start of the delimiter, right before the real one
            int partial = Math.min(size, 1 + random.nextInt(delimiter.length - 1));
            System.arraycopy(delimiter, 0, bytes, size - partial, partial);
        }
        return bytes;
    }

    /**
     * Random places to cut {@code body}: single bytes (a small body), small pieces, large ones, or
     * cuts inside each delimiter; the ends, ascending, the last one the body's length.
     */
    static int[] cuts(Random random, byte[] body, String boundary) {
        TreeSet<Integer> ends = new TreeSet<>();
        int length = body.length;
        switch (random.nextInt(5)) {
            case 0 -> {
                if (length <= 8 * 1024) {
                    for (int end = 1; end < length; end++) {
                        ends.add(end);
                    }
                } else {
                    randomCuts(random, length, 1 + random.nextInt(64), ends);
                }
            }
            case 1 -> randomCuts(random, length, 1 + random.nextInt(200), ends);
            case 2 -> randomCuts(random, length, 1 + random.nextInt(70_000), ends);
            default -> {
                byte[] delimiter = ascii("--" + boundary);
                for (int at = indexOf(body, delimiter, 0); at >= 0; at = indexOf(body, delimiter, at + 1)) {
                    int from = Math.max(1, at - 2); // the CR LF too
                    ends.add(from + random.nextInt(delimiter.length + 2));
                    if (random.nextBoolean()) {
                        ends.add(from + random.nextInt(delimiter.length + 2));
                    }
                }
                randomCuts(random, length, 1 + random.nextInt(4096), ends);
            }
        }
        ends.removeIf(end -> end <= 0 || end >= length);
        ends.add(length);
        return ends.stream().mapToInt(Integer::intValue).toArray();
    }

    private static void randomCuts(Random random, int length, int meanPiece, TreeSet<Integer> ends) {
        for (int end = 1 + random.nextInt(2 * meanPiece); end < length; end += 1 + random.nextInt(2 * meanPiece)) {
            ends.add(end);
        }
    }

    static int indexOf(byte[] bytes, byte[] pattern, int from) {
        outer:
        for (int i = from; i <= bytes.length - pattern.length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (bytes[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }
}
