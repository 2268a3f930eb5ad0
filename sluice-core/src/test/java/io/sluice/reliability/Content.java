package io.sluice.reliability;

import reactor.core.publisher.Flux;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

/** Deterministic test content, its SHA-256, and publishers that emit it in chosen item sizes. */
final class Content {

    private Content() {}

    /** {@code size} pseudo-random bytes from {@code seed}. */
    static byte[] bytes(long seed, int size) {
        byte[] data = new byte[size];
        new Random(seed).nextBytes(data);
        return data;
    }

    static String sha256(byte[] data) {
        return HexFormat.of().formatHex(digest().digest(data));
    }

    static String sha256(Path file) throws IOException {
        MessageDigest digest = digest();
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                digest.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    static String sha256(List<ByteBuffer> chunks) {
        MessageDigest digest = digest();
        for (ByteBuffer chunk : chunks) {
            digest.update(chunk.duplicate());
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /** {@code data} cut into items of random sizes in [1, maxItemBytes], each its own buffer. */
    static List<ByteBuffer> items(byte[] data, int maxItemBytes, Random random) {
        List<ByteBuffer> items = new ArrayList<>();
        int position = 0;
        while (position < data.length) {
            int size = Math.min(data.length - position, 1 + random.nextInt(maxItemBytes));
            items.add(ByteBuffer.wrap(data, position, size).slice());
            position += size;
        }
        return items;
    }

    /** A cold publisher of {@code data} in items of random sizes (fresh buffers per subscriber). */
    static Flux<ByteBuffer> publisher(byte[] data, int maxItemBytes, long seed) {
        return Flux.defer(() -> Flux.fromIterable(items(data, maxItemBytes, new Random(seed))));
    }

    private static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
