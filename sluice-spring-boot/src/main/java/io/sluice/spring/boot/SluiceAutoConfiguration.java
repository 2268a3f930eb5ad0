package io.sluice.spring.boot;

import io.sluice.ChunkPool;
import io.sluice.ReadOptions;
import io.sluice.WriteMode;
import io.sluice.WriteOptions;
import io.sluice.spring.DataBufferFiles;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.codec.multipart.FilePart;

/**
 * sluice's beans, from the {@link SluiceProperties}: the {@link ChunkPool} reads lend from, the
 * default {@link ReadOptions} and {@link WriteOptions}, {@link SluiceTransfers} (with the upload
 * options) and, with {@code spring-web}, {@link SluiceFileParts}; a {@link SluiceFileExecutor} when
 * {@code sluice.executors.files.threads} is set. Each backs off when the application defines a bean
 * of its type; the beans built from the others use the application's.
 */
@AutoConfiguration
@ConditionalOnClass(DataBufferFiles.class)
@EnableConfigurationProperties(SluiceProperties.class)
public class SluiceAutoConfiguration {

    /** Created by Spring. */
    public SluiceAutoConfiguration() {}

    /**
     * The application's own file executor.
     *
     * @param properties {@code sluice.executors.files.threads}
     * @return an executor of that many threads, shut down with the context
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty("sluice.executors.files.threads")
    public SluiceFileExecutor sluiceFileExecutor(SluiceProperties properties) {
        return new SluiceFileExecutor(properties.getExecutors().getFiles().getThreads());
    }

    /**
     * The pool reads lend chunks from.
     *
     * @param properties {@code sluice.pool.*}
     * @return a pool of its own of {@code max-chunks} buffers when that is set, else the JVM's
     *     shared pool for the chunk size
     */
    @Bean
    @ConditionalOnMissingBean
    public ChunkPool sluiceChunkPool(SluiceProperties properties) {
        int chunkSize = chunkSize(properties);
        Integer maxChunks = properties.getPool().getMaxChunks();
        return maxChunks == null ? ChunkPool.sharedFor(chunkSize) : ChunkPool.create(chunkSize, maxChunks);
    }

    /**
     * The default read options: chunks lent from the pool, on the file executor if there is one.
     *
     * @param properties {@code sluice.pool.chunk-size}
     * @param pool the pool to lend from
     * @param executor the application's file executor, if any
     * @return the options: chunks of {@code chunk-size}, or of the pool's chunk size when the pool
     *     is the application's
     */
    @Bean
    @ConditionalOnMissingBean
    public ReadOptions sluiceReadOptions(
            SluiceProperties properties, ChunkPool pool, ObjectProvider<SluiceFileExecutor> executor) {
        ReadOptions options = ReadOptions.defaults().withLentChunks(pool);
        int chunkSize = chunkSize(properties);
        if (pool == ChunkPool.sharedFor(chunkSize) && chunkSize < pool.chunkSizeBytes()) {
            // The shared pool's chunks are the size rounded up to a power of two; the reads keep the
            // size asked. An application's pool keeps its own chunk size.
            options = options.withChunkSize(chunkSize);
        }
        SluiceFileExecutor files = executor.getIfAvailable();
        return files == null ? options : options.withExecutor(files.executor());
    }

    /**
     * The default write options.
     *
     * @param properties {@code sluice.write.*}
     * @param executor the application's file executor, if any
     * @return the options
     */
    @Bean
    @ConditionalOnMissingBean
    public WriteOptions sluiceWriteOptions(SluiceProperties properties, ObjectProvider<SluiceFileExecutor> executor) {
        SluiceProperties.Write write = properties.getWrite();
        WriteOptions options = WriteOptions.defaults()
                .withMode(write.getMode())
                .withMaxQueuedBytes(write.getMaxQueuedBytes().toBytes());
        if (write.getMaxItemBytes() != null) {
            options = options.withMaxItemBytes(write.getMaxItemBytes().toBytes());
        }
        if (write.isSync()) {
            options = options.withSync();
        }
        if (write.isAtomicReplace()) {
            options = options.withAtomicReplace();
        }
        SluiceFileExecutor files = executor.getIfAvailable();
        return files == null ? options : options.withExecutor(files.executor());
    }

    /**
     * The transfers, with the upload options and every {@link TransferObserver} bean.
     *
     * @param properties {@code sluice.upload.*}
     * @param readOptions the default read options
     * @param writeOptions the default write options
     * @param observers the observers, in order
     * @return the transfers
     * @throws IllegalStateException if uploads are atomic and the write mode is {@code APPEND},
     *     which atomic replace refuses
     */
    @Bean
    @ConditionalOnMissingBean
    public SluiceTransfers sluiceTransfers(
            SluiceProperties properties,
            ReadOptions readOptions,
            WriteOptions writeOptions,
            ObjectProvider<TransferObserver> observers) {
        WriteOptions uploadOptions = writeOptions;
        if (properties.getUpload().isAtomicReplace() && !writeOptions.atomicReplace()) {
            if (writeOptions.mode() == WriteMode.APPEND) {
                // Every upload would fail when it starts; say so now, once.
                throw new IllegalStateException("uploads are atomic (sluice.upload.atomic-replace=true), which "
                        + "cannot append: set sluice.upload.atomic-replace=false or another sluice.write.mode");
            }
            uploadOptions = writeOptions.withAtomicReplace();
        }
        return new SluiceTransfers(
                readOptions,
                writeOptions,
                uploadOptions,
                observers.orderedStream().toList());
    }

    private static int chunkSize(SluiceProperties properties) {
        return Math.toIntExact(properties.getPool().getChunkSize().toBytes());
    }

    /** {@link SluiceFileParts}, which needs {@code spring-web}'s multipart types. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(FilePart.class)
    static class FilePartsConfiguration {

        @Bean
        @ConditionalOnMissingBean
        SluiceFileParts sluiceFileParts(SluiceTransfers transfers) {
            return new SluiceFileParts(transfers);
        }
    }
}
