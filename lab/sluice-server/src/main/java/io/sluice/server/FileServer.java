package io.sluice.server;

import io.sluice.ChunkPool;
import io.sluice.IoExecutors;
import io.sluice.ReadOptions;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executor;

/** The streaming file server: one Jetty 12 server, one lane. Stop it with {@link #close()}. */
public final class FileServer extends JettyService {

    /** Lane C's pool: a few threads are enough when nothing blocks. */
    static final int NON_BLOCKING_THREADS = 16;
    /** Lane B's bound on concurrent virtual threads (Jetty's default is 200). */
    static final int MAX_VIRTUAL_THREADS = 100_000;
    /** The size of each download buffer: lane C's largest read chunk. */
    static final int DOWNLOAD_CHUNK_BYTES = ReadOptions.DEFAULT_CHUNK_SIZE_BYTES;

    private final ServerConfig config;
    private final Storage storage;
    /**
     * Lanes C and C-unbounded read downloads into chunks lent from here. The server's own pool, not
     * the JVM's shared one: its bound is {@link ServerConfig#downloadChunks()}, no other reader
     * draws on it, and tests can see every chunk come back.
     */
    private final ChunkPool downloadChunks;

    private FileServer(ServerConfig config, Storage storage, ChunkPool downloadChunks) {
        super(threadPool(config), config.host(), config.port(), 0);
        this.config = config;
        this.storage = storage;
        this.downloadChunks = downloadChunks;
    }

    /**
     * Starts a server.
     *
     * @throws UnsupportedOperationException for lane B on a JVM without virtual threads
     * @throws Exception when Jetty cannot start (port in use, ...)
     */
    public static FileServer start(ServerConfig config) throws Exception {
        return start(config, IoExecutors.files());
    }

    /**
     * As {@link #start(ServerConfig)}, with lane C's filesystem calls on {@code files} (tests use
     * it to see where the file is opened). Not shut down by {@link #close()}.
     */
    static FileServer start(ServerConfig config, Executor files) throws Exception {
        refuseUnsupportedLane(config.lane());
        Path directory = config.directory().toAbsolutePath().normalize();
        ChunkPool downloadChunks = ChunkPool.create(DOWNLOAD_CHUNK_BYTES, config.downloadChunks()); // empty until read
        Storage storage;
        if (config.bucket() != null) {
            storage = new ObjectStorage(
                    S3Clients.of(config.bucket()), config.bucket().bucket(), config.maxUploadBytes(), config.events());
        } else {
            Files.createDirectories(directory);
            storage = config.lane().blocking()
                    ? new BlockingStorage(config.maxUploadBytes(), config.events())
                    : new ReactiveStorage(
                            config.lane() == Lane.C, config.maxUploadBytes(), config.events(), files, downloadChunks);
        }
        FileServer fileServer = new FileServer(config, storage, downloadChunks);
        fileServer.server().setHandler(new FileHandler(config.lane(), directory, storage));
        fileServer.start();
        return fileServer;
    }

    /**
     * Lane B needs JDK 21+. The module compiles with {@code --release 17}, so virtual threads are
     * reached only by reflection (inside Jetty and {@link IoExecutors}); this check turns their
     * absence into one clear message instead of a stack trace from deep inside Jetty.
     */
    static void refuseUnsupportedLane(Lane lane) {
        if (lane == Lane.B && !IoExecutors.virtualThreadsAvailable()) {
            throw new UnsupportedOperationException(
                    "lane B needs virtual threads (JDK 21 or newer); this JVM is " + Runtime.version()
                            + ". Run it with /usr/lib/jvm/temurin-25-jdk-amd64/bin/java, or pick lane A or C.");
        }
    }

    private static ThreadPool threadPool(ServerConfig config) {
        if (config.lane() == Lane.B) {
            VirtualThreadPool pool = new VirtualThreadPool(MAX_VIRTUAL_THREADS);
            pool.setName("lane-b");
            return pool;
        }
        QueuedThreadPool pool = config.lane() == Lane.A
                ? new QueuedThreadPool(config.platformThreads(), 8)
                : new QueuedThreadPool(NON_BLOCKING_THREADS, 4);
        pool.setName(config.lane() == Lane.A ? "lane-a" : "lane-c");
        return pool;
    }

    /** {@code http://host:port} of this server. */
    public URI uri() {
        return URI.create("http://" + config.host() + ":" + port());
    }

    /** The pool lanes C and C-unbounded lend download chunks from (unused by lanes A and B). */
    ChunkPool downloadChunks() {
        return downloadChunks;
    }

    @Override
    protected void release() {
        storage.close();
    }
}
