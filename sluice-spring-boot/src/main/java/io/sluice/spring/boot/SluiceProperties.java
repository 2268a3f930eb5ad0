package io.sluice.spring.boot;

import io.sluice.ReadOptions;
import io.sluice.WriteMode;
import io.sluice.WriteOptions;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * The {@code sluice.*} properties: the file executor, the chunk pool of reads, and the default
 * write and upload options. Every property is optional; unset, each bean is what sluice's own
 * defaults give ({@link ReadOptions#defaults()}, {@link WriteOptions#defaults()}, the shared pools).
 *
 * <p><b>Threading:</b> bound once by Spring at startup; not meant to be changed afterwards.
 *
 * <p><b>Errors:</b> a value sluice refuses (a size below 1 byte, a thread count below 1) fails the
 * application context's startup with sluice's {@link IllegalArgumentException} naming it.
 */
@ConfigurationProperties("sluice")
public class SluiceProperties {

    /** Defaults everywhere; Spring binds the {@code sluice.*} properties onto them. */
    public SluiceProperties() {}

    /** The file executor. */
    private final Executors executors = new Executors();
    /** The chunk pool reads lend from. */
    private final Pool pool = new Pool();
    /** The default write options. */
    private final Write write = new Write();
    /** What uploads add to the default write options. */
    private final Upload upload = new Upload();
    /** How multipart forms are read. */
    private final Multipart multipart = new Multipart();

    /**
     * The file executor's properties.
     *
     * @return the {@code sluice.executors.*} group
     */
    public Executors getExecutors() {
        return executors;
    }

    /**
     * The chunk pool's properties.
     *
     * @return the {@code sluice.pool.*} group
     */
    public Pool getPool() {
        return pool;
    }

    /**
     * The default write options' properties.
     *
     * @return the {@code sluice.write.*} group
     */
    public Write getWrite() {
        return write;
    }

    /**
     * The upload options' properties.
     *
     * @return the {@code sluice.upload.*} group
     */
    public Upload getUpload() {
        return upload;
    }

    /**
     * The multipart reader's properties.
     *
     * @return the {@code sluice.multipart.*} group
     */
    public Multipart getMultipart() {
        return multipart;
    }

    /** {@code sluice.executors.*}. */
    public static class Executors {

        /** No executor of the application's own until a size is set. */
        public Executors() {}

        /** The file executor's properties. */
        private final Files files = new Files();

        /**
         * The file executor's properties.
         *
         * @return the {@code sluice.executors.files.*} group
         */
        public Files getFiles() {
            return files;
        }
    }

    /** {@code sluice.executors.files.*}. */
    public static class Files {

        /** No size: the shared file pool. */
        public Files() {}

        /**
         * Threads of a file executor of the application's own, used by the default read and write
         * options and shut down with the context. Unset: the JVM's shared file pool (sized by
         * -Dsluice.io.threads).
         */
        private Integer threads;

        /**
         * The file executor's size.
         *
         * @return the number of threads, or {@code null} for the shared pool
         */
        public Integer getThreads() {
            return threads;
        }

        /**
         * Sets the file executor's size.
         *
         * @param threads the number of threads, or {@code null} for the shared pool
         */
        public void setThreads(Integer threads) {
            this.threads = threads;
        }
    }

    /** {@code sluice.pool.*}. */
    public static class Pool {

        /** The default chunk size and the shared pool. */
        public Pool() {}

        /** Size of each chunk a read lends, and so of each buffer it emits. */
        private DataSize chunkSize =
                DataSize.ofKilobytes(64); // ReadOptions.DEFAULT_CHUNK_SIZE_BYTES: a literal, so the metadata shows it

        /**
         * Most direct buffers a pool of the application's own holds. Unset: the JVM's shared pool
         * for the chunk size (at most 1/16 of the heap in direct memory, 4 to 64 MiB).
         */
        private Integer maxChunks;

        /**
         * The chunk size.
         *
         * @return the size of each chunk
         */
        public DataSize getChunkSize() {
            return chunkSize;
        }

        /**
         * Sets the chunk size.
         *
         * @param chunkSize the size of each chunk
         */
        public void setChunkSize(DataSize chunkSize) {
            this.chunkSize = chunkSize;
        }

        /**
         * The pool's bound.
         *
         * @return the most direct buffers of a pool of the application's own, or {@code null} for
         *     the shared pool
         */
        public Integer getMaxChunks() {
            return maxChunks;
        }

        /**
         * Sets the pool's bound.
         *
         * @param maxChunks the most direct buffers, or {@code null} for the shared pool
         */
        public void setMaxChunks(Integer maxChunks) {
            this.maxChunks = maxChunks;
        }
    }

    /** {@code sluice.write.*}. */
    public static class Write {

        /** The default write options. */
        public Write() {}

        /** How a write opens its target. */
        private WriteMode mode = WriteMode.TRUNCATE;

        /** Cap on received, unwritten bytes per write. */
        private DataSize maxQueuedBytes =
                DataSize.ofMegabytes(1); // WriteOptions.DEFAULT_MAX_QUEUED_BYTES, literal as above

        /**
         * Largest item the source sends, making the byte cap a hard bound; a larger item fails the
         * write. Unset: the writer goes by the largest item seen.
         */
        private DataSize maxItemBytes;

        /** Whether data and metadata are forced to the device before a write completes. */
        private boolean sync;

        /** Whether every file write goes through a temporary file renamed over the target (implies sync). */
        private boolean atomicReplace;

        /**
         * The open mode.
         *
         * @return how a write opens its target
         */
        public WriteMode getMode() {
            return mode;
        }

        /**
         * Sets the open mode.
         *
         * @param mode how a write opens its target
         */
        public void setMode(WriteMode mode) {
            this.mode = mode;
        }

        /**
         * The byte cap.
         *
         * @return the cap on received, unwritten bytes per write
         */
        public DataSize getMaxQueuedBytes() {
            return maxQueuedBytes;
        }

        /**
         * Sets the byte cap.
         *
         * @param maxQueuedBytes the cap on received, unwritten bytes per write
         */
        public void setMaxQueuedBytes(DataSize maxQueuedBytes) {
            this.maxQueuedBytes = maxQueuedBytes;
        }

        /**
         * The declared largest item.
         *
         * @return the largest item the source sends, or {@code null} if not declared
         */
        public DataSize getMaxItemBytes() {
            return maxItemBytes;
        }

        /**
         * Declares the largest item.
         *
         * @param maxItemBytes the largest item the source sends, or {@code null}
         */
        public void setMaxItemBytes(DataSize maxItemBytes) {
            this.maxItemBytes = maxItemBytes;
        }

        /**
         * Whether writes sync.
         *
         * @return {@code true} if data and metadata are forced before a write completes
         */
        public boolean isSync() {
            return sync;
        }

        /**
         * Sets whether writes sync.
         *
         * @param sync {@code true} to force data and metadata before a write completes
         */
        public void setSync(boolean sync) {
            this.sync = sync;
        }

        /**
         * Whether every write replaces its target atomically.
         *
         * @return {@code true} for atomic replace
         */
        public boolean isAtomicReplace() {
            return atomicReplace;
        }

        /**
         * Sets whether every write replaces its target atomically.
         *
         * @param atomicReplace {@code true} for atomic replace
         */
        public void setAtomicReplace(boolean atomicReplace) {
            this.atomicReplace = atomicReplace;
        }
    }

    /** {@code sluice.upload.*}. */
    public static class Upload {

        /** Uploads atomic by default. */
        public Upload() {}

        /**
         * Whether uploads (SluiceTransfers.upload, SluiceFileParts) replace their target atomically,
         * on top of the default write options: an aborted or failed upload then leaves nothing under
         * the target's name.
         */
        private boolean atomicReplace = true;

        /**
         * Whether uploads replace their target atomically.
         *
         * @return {@code true} (the default) for atomic replace
         */
        public boolean isAtomicReplace() {
            return atomicReplace;
        }

        /**
         * Sets whether uploads replace their target atomically.
         *
         * @param atomicReplace {@code true} for atomic replace
         */
        public void setAtomicReplace(boolean atomicReplace) {
            this.atomicReplace = atomicReplace;
        }
    }

    /** {@code sluice.multipart.*}. */
    public static class Multipart {

        /** sluice's reader by default. */
        public Multipart() {}

        /**
         * Whether multipart forms are read by sluice's StoringPartReader in place of Spring's reader:
         * file parts stored through sluice and moved, not copied, by FilePart.transferTo. Spring's
         * spring.webflux.multipart.* limits and storage directory apply to it.
         */
        private boolean enabled = true;

        /**
         * Whether sluice reads multipart forms.
         *
         * @return {@code true} (the default) for sluice's reader
         */
        public boolean isEnabled() {
            return enabled;
        }

        /**
         * Sets whether sluice reads multipart forms.
         *
         * @param enabled {@code true} for sluice's reader
         */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }
}
