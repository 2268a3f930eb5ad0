package io.sluice.s3.internal;

import java.util.Base64;
import java.util.zip.CRC32C;

/** S3's spelling of a CRC32C: its four bytes, big-endian, in base64, as {@code x-amz-checksum-crc32c} carries it. */
final class Crc32c {

    private Crc32c() {}

    static String header(CRC32C crc) {
        int value = (int) crc.getValue();
        return Base64.getEncoder()
                .encodeToString(
                        new byte[] {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value});
    }
}
