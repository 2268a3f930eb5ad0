package io.sluice.server;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** A running SHA-256 of the bytes handed to the storage end. */
final class Sha256 {

    private final MessageDigest digest;

    Sha256() {
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    void update(ByteBuffer bytes) {
        digest.update(bytes.duplicate());
    }

    void update(byte[] bytes, int offset, int length) {
        digest.update(bytes, offset, length);
    }

    String hex() {
        return HexFormat.of().formatHex(digest.digest());
    }
}
