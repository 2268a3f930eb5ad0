package io.sluice.server;

import java.nio.file.Path;
import java.util.Objects;

/**
 * What a {@link FileServer} needs: lane, address, storage (a directory or a bucket) and limits.
 *
 * @param lane the threading model
 * @param host the address to bind; loopback unless told otherwise
 * @param port the port; 0 picks a free one
 * @param directory where files are stored (created if missing), unless {@code bucket} is set
 * @param maxUploadBytes uploads beyond this many bytes are refused with 413
 * @param platformThreads the size of lane A's pool (200 in the scenarios)
 * @param events observer of upload outcomes (tests wait on it instead of sleeping)
 * @param downloadChunks the most 64 KiB direct buffers lanes C and C-unbounded lend their
 *     downloads at once (the server's {@link io.sluice.ChunkPool}); past that, reads get heap chunks
 * @param bucket the S3-compatible bucket files are stored in instead of {@code directory} (lane C
 *     only), or null for the directory
 */
public record ServerConfig(
        Lane lane,
        String host,
        int port,
        Path directory,
        long maxUploadBytes,
        int platformThreads,
        UploadEvents events,
        int downloadChunks,
        S3Bucket bucket) {

    /** Default upload limit: 1 GiB. */
    public static final long DEFAULT_MAX_UPLOAD_BYTES = 1024L * 1024 * 1024;
    /** Lane A's pool size, Jetty's own default; at ?delay=100 it caps lane A at 2,000 req/s (A2's control). */
    public static final int DEFAULT_PLATFORM_THREADS = 200;
    /**
     * Download buffers: 1,024 x 64 KiB, at most 64 MiB of direct memory. Lane C holds two per
     * download in flight, so this serves about 500 downloads at once from the pool (scenario B's
     * 256 slow readers need 512), and stays below the JVM's default direct-memory limit (the heap's
     * maximum) for a heap of 256 MiB, the harness's smallest.
     */
    public static final int DEFAULT_DOWNLOAD_CHUNKS = 1024;

    public ServerConfig {
        Objects.requireNonNull(lane, "lane");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(events, "events");
        require(port >= 0 && port <= 65535, "port must be 0..65535, was " + port);
        require(maxUploadBytes >= 0, "maxUploadBytes must not be negative, was " + maxUploadBytes);
        require(platformThreads >= 4, "platformThreads must be at least 4, was " + platformThreads);
        require(downloadChunks >= 1, "downloadChunks must be at least 1, was " + downloadChunks);
        require(
                bucket == null || lane == Lane.C,
                "a bucket is served by lane C only (its S3 client is "
                        + "asynchronous: lanes A and B would block a thread per request on it), not lane "
                        + lane.flag());
    }

    private static void require(boolean valid, String message) {
        if (!valid) {
            throw new IllegalArgumentException(message);
        }
    }

    /** Loopback, a free port, 1 GiB uploads, 200 platform threads, no observer, 1,024 download buffers. */
    public static ServerConfig loopback(Lane lane, Path directory) {
        return new ServerConfig(
                lane,
                "127.0.0.1",
                0,
                directory,
                DEFAULT_MAX_UPLOAD_BYTES,
                DEFAULT_PLATFORM_THREADS,
                UploadEvents.NONE,
                DEFAULT_DOWNLOAD_CHUNKS,
                null);
    }

    public ServerConfig withMaxUploadBytes(long bytes) {
        return new ServerConfig(lane, host, port, directory, bytes, platformThreads, events, downloadChunks, bucket);
    }

    public ServerConfig withPlatformThreads(int threads) {
        return new ServerConfig(lane, host, port, directory, maxUploadBytes, threads, events, downloadChunks, bucket);
    }

    public ServerConfig withEvents(UploadEvents newEvents) {
        return new ServerConfig(
                lane, host, port, directory, maxUploadBytes, platformThreads, newEvents, downloadChunks, bucket);
    }

    /** This configuration storing files in {@code newBucket} instead of the directory. */
    public ServerConfig withBucket(S3Bucket newBucket) {
        return new ServerConfig(
                lane, host, port, directory, maxUploadBytes, platformThreads, events, downloadChunks, newBucket);
    }
}
