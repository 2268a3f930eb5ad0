package io.sluice.spring;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.sluice.WriteOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.ResolvableType;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ReactiveHttpInputMessage;
import org.springframework.http.codec.multipart.PartEvent;
import org.springframework.http.codec.multipart.PartEventHttpMessageReader;
import reactor.core.publisher.Flux;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An upload that fails in the middle of its second file part (a client abort), read by Spring's own
 * {@link PartEventHttpMessageReader} from Netty buffers and stored by {@link FileParts#store}, whose
 * writes run only after the failure (so they lag the upload, deterministically): the store fails
 * with the upload's error, and every buffer the body made is released exactly once. Spring's reader
 * builds each event with {@code concatMap(... Mono.just(event))}, which on cancel discards an event
 * it has already emitted; the store must not release that event a second time.
 *
 * <p>Chunks of 100 bytes and more: with a few bytes per buffer the part has more tokens than the
 * store keeps requested ahead (256), and Spring's reader then holds the rest in a window of its own
 * whose discard no hook can match (its token type is package-private); that leak is Spring's.
 */
class FilePartsUploadAbortTest {

    private static final String BOUNDARY = "sLuIcE-bOuNdArY";
    private static final int FIRST_BYTES = 3000;
    private static final int SECOND_BYTES = 20_000;
    private static final int[] CHUNK_BYTES = {100, 1000, 4096};
    private static final int ROUNDS = 150;

    private final UnpooledByteBufAllocator allocator = new UnpooledByteBufAllocator(false);
    private final NettyDataBufferFactory factory = new NettyDataBufferFactory(allocator);
    private final byte[] form = form();

    @TempDir
    Path dir;

    @Test
    void anUploadFailingMidPartReleasesEveryBufferOnceAndFailsTheStore() throws IOException {
        Random random = new Random(7);
        int secondBodyStart = indexAfter("filename=\"file.bin\"") + 80; // past the rest of that part's headers
        for (int round = 0; round < ROUNDS; round++) {
            int cut = secondBodyStart + 100 + random.nextInt(SECOND_BYTES - 100);
            int chunk = CHUNK_BYTES[round % CHUNK_BYTES.length];
            List<ByteBuf> made = Collections.synchronizedList(new ArrayList<>());
            ArrayDeque<Runnable> writes = new ArrayDeque<>();
            Path target = Files.createDirectories(dir.resolve("round-" + round));
            Throwable[] failure = new Throwable[1];

            FileParts.store(
                            read(body(cut, chunk, made)),
                            event -> target.resolve(event.name()),
                            WriteOptions.defaults().withAtomicReplace().withExecutor(writes::add))
                    .subscribe(stored -> {}, error -> failure[0] = error);
            for (Runnable write; (write = writes.poll()) != null; ) {
                write.run();
            }

            String at = " (round " + round + ", cut " + cut + ", chunks of " + chunk + " bytes)";
            assertTrue(
                    failure[0] instanceof IOException && "client aborted".equals(failure[0].getMessage()),
                    "the store ended with " + failure[0] + " instead of the upload's error" + at);
            assertEquals(List.of(), live(made), "buffers never released" + at);
        }
    }

    /** The form's bytes up to {@code cut}, in Netty buffers of {@code chunk} bytes made on request, then the abort. */
    private Flux<DataBuffer> body(int cut, int chunk, List<ByteBuf> made) {
        return Flux.range(0, (cut + chunk - 1) / chunk)
                .map(index -> {
                    int start = index * chunk;
                    int end = Math.min(cut, start + chunk);
                    ByteBuf buffer = allocator.heapBuffer(end - start);
                    buffer.writeBytes(form, start, end - start);
                    made.add(buffer);
                    return (DataBuffer) factory.wrap(buffer);
                })
                .concatWith(Flux.error(new IOException("client aborted")));
    }

    /** Indexes of the buffers not yet released. */
    private static List<Integer> live(List<ByteBuf> made) {
        List<Integer> live = new ArrayList<>();
        synchronized (made) {
            for (int i = 0; i < made.size(); i++) {
                if (made.get(i).refCnt() != 0) {
                    live.add(i);
                }
            }
        }
        return live;
    }

    private static Flux<PartEvent> read(Flux<DataBuffer> body) {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.parseMediaType("multipart/form-data; boundary=" + BOUNDARY));
        ReactiveHttpInputMessage request = new ReactiveHttpInputMessage() {
            @Override
            public Flux<DataBuffer> getBody() {
                return body;
            }

            @Override
            public HttpHeaders getHeaders() {
                return headers;
            }
        };
        return new PartEventHttpMessageReader().read(ResolvableType.forClass(PartEvent.class), request, Map.of());
    }

    private int indexAfter(String text) {
        byte[] marker = text.getBytes(StandardCharsets.US_ASCII);
        outer:
        for (int i = 0; i + marker.length <= form.length; i++) {
            for (int j = 0; j < marker.length; j++) {
                if (form[i + j] != marker[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("no " + text + " in the form");
    }

    private static byte[] form() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        part(out, "first", FIRST_BYTES, 1);
        part(out, "file", SECOND_BYTES, 2);
        out.writeBytes(("--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    private static void part(ByteArrayOutputStream out, String name, int bytes, long seed) {
        out.writeBytes(("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"" + name + "\"; filename=\""
                        + name + ".bin\"\r\nContent-Type: application/octet-stream\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        byte[] content = new byte[bytes];
        new Random(seed).nextBytes(content);
        for (int i = 0; i < content.length; i++) {
            if (content[i] == '-' || content[i] == '\r') {
                content[i] = 'x'; // no boundary look-alikes in the body
            }
        }
        out.writeBytes(content);
        out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
    }
}
