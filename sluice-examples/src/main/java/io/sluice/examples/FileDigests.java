package io.sluice.examples;

import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Single;
import io.sluice.ReactiveFile;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Example 1: the SHA-256 of a file of any size, with Reactor and with RxJava 3. Memory stays at a
 * few 64 KiB chunks whatever the file size: the file is read only as fast as the digest consumes it.
 *
 * <p>Run: {@code java io.sluice.examples.FileDigests <file>}.
 */
public final class FileDigests {

    private FileDigests() {
    }

    /**
     * The file's SHA-256, with Reactor. Cold: each subscription reads the file again, into its own
     * digest ({@code reduceWith}).
     *
     * @param file the file to hash
     * @return a {@code Mono} of the 32-byte digest
     */
    public static Mono<byte[]> sha256WithReactor(Path file) {
        return Flux.from(ReactiveFile.of(file).read())
                .reduceWith(FileDigests::newSha256, FileDigests::update)
                .map(MessageDigest::digest);
    }

    /**
     * The file's SHA-256, with RxJava 3.
     *
     * @param file the file to hash
     * @return a {@code Single} of the 32-byte digest
     */
    public static Single<byte[]> sha256WithRxJava(Path file) {
        return Flowable.fromPublisher(ReactiveFile.of(file).read())
                .reduceWith(FileDigests::newSha256, FileDigests::update)
                .map(MessageDigest::digest);
    }

    private static MessageDigest update(MessageDigest digest, ByteBuffer chunk) {
        digest.update(chunk);
        return digest;
    }

    static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform must provide SHA-256", e);
        }
    }

    /**
     * Prints the file's SHA-256 twice, computed with each library.
     *
     * @param args the file's path
     */
    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: FileDigests <file>");
            System.exit(2);
        }
        Path file = Path.of(args[0]);
        HexFormat hex = HexFormat.of();
        System.out.println("reactor " + hex.formatHex(sha256WithReactor(file).block()));
        System.out.println("rxjava  " + hex.formatHex(sha256WithRxJava(file).blockingGet()));
    }
}
