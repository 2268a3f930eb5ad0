package io.sluice.examples;

import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Single;
import io.sluice.ChunkPool;
import io.sluice.ReactiveFile;
import io.sluice.ReadOptions;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

// spotless:off (the docs quote this file line for line, a test checks it: the layout is theirs)

/**
 * Example 1: the SHA-256 of a file of any size, with Reactor and with RxJava 3. Memory stays at a
 * few 64 KiB chunks whatever the file size: the file is read only as fast as the digest consumes it.
 * {@link #sha256WithLentChunks} reads into lent chunks instead, so it allocates nothing per chunk.
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

    /**
     * The file's SHA-256, read into chunks lent from {@code pool}: one direct buffer serves the
     * whole file, since each chunk goes back before the next is read. Cold: each subscription reads
     * the file again, into its own digest.
     *
     * @param file the file to hash
     * @param pool the pool to borrow chunks from ({@link ChunkPool#sharedFor} for the shared one)
     * @return a {@code Mono} of the 32-byte digest
     */
    public static Mono<byte[]> sha256WithLentChunks(Path file, ChunkPool pool) {
        return Mono.defer(() -> {
            MessageDigest digest = newSha256();
            return digestLentChunks(file, pool, digest).then(Mono.fromCallable(digest::digest));
        });
    }

    /**
     * Feeds each chunk of {@code file}, lent from {@code pool}, to {@code digest}, and gives it back
     * as soon as the digest has it, even if the digest throws. Downstream sees each chunk's size,
     * never the chunk, so no operator can touch it after it went back. A cancel ({@code take},
     * {@code dispose}, a timeout) leaves no chunk out: {@code map} passes every chunk it receives to
     * {@link #updateAndGiveBack}, and the read gives back one it read but did not emit.
     *
     * @param file the file to hash
     * @param pool the pool to borrow chunks from
     * @param digest the digest to update
     * @return a {@code Flux} of the size of each chunk digested
     */
    public static Flux<Integer> digestLentChunks(Path file, ChunkPool pool, MessageDigest digest) {
        return Flux.from(ReactiveFile.of(file).read(ReadOptions.defaults().withLentChunks(pool)))
                .map(chunk -> updateAndGiveBack(digest, chunk));
    }

    private static int updateAndGiveBack(MessageDigest digest, ByteBuffer chunk) {
        try {
            int bytes = chunk.remaining();
            digest.update(chunk);
            return bytes;
        } finally {
            ChunkPool.giveBack(chunk);          // the chunk is the pool's again: not touched below
        }
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
     * Prints the file's SHA-256 three times: with Reactor, with RxJava, and with lent chunks.
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
        ChunkPool shared = ChunkPool.sharedFor(ReadOptions.DEFAULT_CHUNK_SIZE_BYTES);
        System.out.println("lent    " + hex.formatHex(sha256WithLentChunks(file, shared).block()));
    }
}
// spotless:on
