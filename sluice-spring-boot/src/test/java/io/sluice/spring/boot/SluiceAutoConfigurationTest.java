package io.sluice.spring.boot;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.sluice.ChunkPool;
import io.sluice.ReadOptions;
import io.sluice.WriteMode;
import io.sluice.WriteOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.codec.multipart.FilePart;
import reactor.core.publisher.Flux;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;

import static org.assertj.core.api.Assertions.assertThat;

class SluiceAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    SluiceAutoConfiguration.class,
                    SluiceMetricsAutoConfiguration.class,
                    SluiceObservationAutoConfiguration.class));

    @TempDir
    Path dir;

    @Test
    void theDefaultsAreSluicesOwn() {
        runner.run(context -> {
            ChunkPool pool = context.getBean(ChunkPool.class);
            assertThat(pool).isSameAs(ChunkPool.sharedFor(ReadOptions.DEFAULT_CHUNK_SIZE_BYTES));
            ReadOptions read = context.getBean(ReadOptions.class);
            assertThat(read.lentChunks()).isTrue();
            assertThat(read.chunkPool()).isSameAs(pool);
            assertThat(read.chunkSizeBytes()).isEqualTo(ReadOptions.DEFAULT_CHUNK_SIZE_BYTES);
            assertThat(read.executor()).isNull();
            WriteOptions write = context.getBean(WriteOptions.class);
            assertThat(write.mode()).isEqualTo(WriteMode.TRUNCATE);
            assertThat(write.maxQueuedBytes()).isEqualTo(WriteOptions.DEFAULT_MAX_QUEUED_BYTES);
            assertThat(write.maxItemBytes()).isZero();
            assertThat(write.sync()).isFalse();
            assertThat(write.atomicReplace()).isFalse();
            assertThat(write.executor()).isNull();
            assertThat(write.listener()).isNull();
            SluiceTransfers transfers = context.getBean(SluiceTransfers.class);
            assertThat(transfers.writeOptions()).isSameAs(write);
            assertThat(transfers.readOptions()).isSameAs(read);
            assertThat(transfers.uploadOptions().atomicReplace())
                    .as("uploads are atomic by default")
                    .isTrue();
            assertThat(transfers.uploadOptions().maxQueuedBytes()).isEqualTo(write.maxQueuedBytes());
            assertThat(context).hasSingleBean(SluiceFileParts.class);
            assertThat(context).doesNotHaveBean(SluiceFileExecutor.class);
            assertThat(context).doesNotHaveBean(TransferMeters.class).doesNotHaveBean(TransferObservations.class);
        });
    }

    @Test
    void poolPropertiesMakeAPoolOfItsOwn() {
        runner.withPropertyValues("sluice.pool.chunk-size=16KB", "sluice.pool.max-chunks=8")
                .run(context -> {
                    ChunkPool pool = context.getBean(ChunkPool.class);
                    assertThat(pool.chunkSizeBytes()).isEqualTo(16 * 1024);
                    assertThat(pool.maxChunks()).isEqualTo(8);
                    assertThat(pool).isNotSameAs(ChunkPool.sharedFor(16 * 1024));
                    ReadOptions read = context.getBean(ReadOptions.class);
                    assertThat(read.chunkPool()).isSameAs(pool);
                    assertThat(read.chunkSizeBytes()).isEqualTo(16 * 1024);
                });
    }

    @Test
    void aChunkSizeAloneKeepsTheSharedPoolAndTheSizeAsked() {
        runner.withPropertyValues("sluice.pool.chunk-size=100KB").run(context -> {
            assertThat(context.getBean(ChunkPool.class)).isSameAs(ChunkPool.sharedFor(100 * 1024));
            assertThat(context.getBean(ReadOptions.class).chunkSizeBytes()).isEqualTo(100 * 1024);
        });
    }

    @Test
    void writePropertiesMakeTheDefaultWriteOptions() {
        runner.withPropertyValues(
                        "sluice.write.max-queued-bytes=256KB",
                        "sluice.write.max-item-bytes=64KB",
                        "sluice.write.sync=true",
                        "sluice.write.mode=create-new")
                .run(context -> {
                    WriteOptions write = context.getBean(WriteOptions.class);
                    assertThat(write.maxQueuedBytes()).isEqualTo(256 * 1024);
                    assertThat(write.maxItemBytes()).isEqualTo(64 * 1024);
                    assertThat(write.sync()).isTrue();
                    assertThat(write.atomicReplace()).isFalse();
                    assertThat(write.mode()).isEqualTo(WriteMode.CREATE_NEW);
                    assertThat(context.getBean(SluiceTransfers.class)
                                    .uploadOptions()
                                    .mode())
                            .isEqualTo(WriteMode.CREATE_NEW);
                });
        runner.withPropertyValues("sluice.write.atomic-replace=true")
                .run(context -> assertThat(context.getBean(WriteOptions.class).atomicReplace())
                        .isTrue());
    }

    @Test
    void uploadsCanBeMadeNonAtomic() {
        runner.withPropertyValues("sluice.upload.atomic-replace=false")
                .run(context -> assertThat(context.getBean(SluiceTransfers.class)
                                .uploadOptions()
                                .atomicReplace())
                        .isFalse());
    }

    @Test
    void anInvalidValueFailsTheStartupNamingIt() {
        runner.withPropertyValues("sluice.pool.max-chunks=0")
                .run(context -> assertThat(context)
                        .getFailure()
                        .hasRootCauseInstanceOf(IllegalArgumentException.class)
                        .rootCause()
                        .hasMessageContaining("maxChunks"));
        runner.withPropertyValues("sluice.executors.files.threads=0")
                .run(context -> assertThat(context).getFailure().rootCause().hasMessageContaining("threads"));
        runner.withPropertyValues("sluice.write.mode=append")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("sluice.upload.atomic-replace"));
        runner.withPropertyValues("sluice.write.mode=append", "sluice.upload.atomic-replace=false")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void aFileExecutorRunsTheTransfersAndIsShutDownWithTheContext() {
        ExecutorService[] executor = new ExecutorService[1];
        runner.withPropertyValues("sluice.executors.files.threads=2").run(context -> {
            executor[0] = context.getBean(SluiceFileExecutor.class).executor();
            assertThat(context.getBean(ReadOptions.class).executor()).isSameAs(executor[0]);
            assertThat(context.getBean(WriteOptions.class).executor()).isSameAs(executor[0]);
            SluiceTransfers transfers = context.getBean(SluiceTransfers.class);
            Path file = dir.resolve("threads.txt");
            List<String> requesting = new CopyOnWriteArrayList<>(); // the write asks from its drain, on its executor
            transfers
                    .write(
                            buffers("hello")
                                    .doOnRequest(n -> requesting.add(
                                            Thread.currentThread().getName())),
                            file)
                    .block(Duration.ofSeconds(10));
            assertThat(file).hasContent("hello");
            assertThat(requesting).isNotEmpty().allMatch(name -> name.startsWith("sluice-files-"));
            assertThat(executor[0].isShutdown()).isFalse();
        });
        assertThat(executor[0].isShutdown())
                .as("shut down when the context closed")
                .isTrue();
    }

    @Test
    void uploadsAreAtomicAndWritesAreNot() throws IOException {
        runner.run(context -> {
            SluiceTransfers transfers = context.getBean(SluiceTransfers.class);
            Path upload = dir.resolve("upload.bin");
            Path write = dir.resolve("write.bin");
            Flux<DataBuffer> aborted =
                    buffers("half of it").concatWith(Flux.error(new IOException("client went away")));
            assertThat(transfers.upload(aborted, upload).onErrorReturn(-1L).block(Duration.ofSeconds(10)))
                    .isEqualTo(-1L);
            assertThat(transfers
                            .write(
                                    buffers("half of it").concatWith(Flux.error(new IOException("client went away"))),
                                    write)
                            .onErrorReturn(-1L)
                            .block(Duration.ofSeconds(10)))
                    .isEqualTo(-1L);
            assertThat(upload).as("an aborted upload leaves nothing").doesNotExist();
            assertThat(write).as("a plain write leaves what it had").exists();
            assertThat(transfers.upload(buffers("whole"), upload).block(Duration.ofSeconds(10)))
                    .isEqualTo(5L);
            assertThat(Files.readString(upload)).isEqualTo("whole");
            try (var listing = Files.list(dir)) {
                assertThat(listing.map(path -> path.getFileName().toString()).toList())
                        .containsExactlyInAnyOrder("upload.bin", "write.bin");
            }
        });
    }

    @Test
    void theApplicationsBeansWin() {
        ChunkPool pool = ChunkPool.create(8 * 1024, 4);
        WriteOptions write = WriteOptions.defaults().withMaxQueuedBytes(4096);
        runner.withBean(ChunkPool.class, () -> pool)
                .withBean(WriteOptions.class, () -> write)
                .run(context -> {
                    assertThat(context.getBean(ChunkPool.class)).isSameAs(pool);
                    ReadOptions read = context.getBean(ReadOptions.class);
                    assertThat(read.chunkPool())
                            .as("the default read options lend from the application's pool")
                            .isSameAs(pool);
                    assertThat(read.chunkSizeBytes()).isEqualTo(8 * 1024);
                    assertThat(context.getBean(SluiceTransfers.class).writeOptions())
                            .isSameAs(write);
                    assertThat(context.getBean(SluiceTransfers.class)
                                    .uploadOptions()
                                    .maxQueuedBytes())
                            .isEqualTo(4096);
                });
        ChunkPool large = ChunkPool.create(256 * 1024, 2);
        runner.withBean(ChunkPool.class, () -> large)
                .run(context -> assertThat(context.getBean(ReadOptions.class).chunkSizeBytes())
                        .as("the pool's chunks, whole")
                        .isEqualTo(256 * 1024));
        ReadOptions read = ReadOptions.defaults();
        SluiceTransfers own = new SluiceTransfers(read, WriteOptions.defaults(), WriteOptions.defaults(), List.of());
        runner.withBean(ReadOptions.class, () -> read)
                .withBean(SluiceTransfers.class, () -> own)
                .withBean(SluiceFileParts.class, () -> new SluiceFileParts(own))
                .run(context -> {
                    assertThat(context.getBean(ReadOptions.class)).isSameAs(read);
                    assertThat(context.getBean(SluiceTransfers.class)).isSameAs(own);
                    assertThat(context).hasSingleBean(SluiceFileParts.class);
                });
        runner.withPropertyValues("sluice.executors.files.threads=1")
                .withBean("mine", SluiceFileExecutor.class, () -> new SluiceFileExecutor(3))
                .run(context -> assertThat(context)
                        .hasSingleBean(SluiceFileExecutor.class)
                        .hasBean("mine"));
    }

    @Test
    void withoutMicrometerOnTheClassPathTransfersAreNotObserved() {
        runner.withClassLoader(new FilteredClassLoader(MeterRegistry.class, ObservationRegistry.class))
                .run(context -> {
                    assertThat(context)
                            .hasNotFailed()
                            .hasSingleBean(SluiceTransfers.class)
                            .doesNotHaveBean(TransferMeters.class)
                            .doesNotHaveBean(TransferObservations.class);
                    Path file = dir.resolve("plain.txt");
                    assertThat(context.getBean(SluiceTransfers.class)
                                    .write(buffers("plain"), file)
                                    .block(Duration.ofSeconds(10)))
                            .isEqualTo(5L);
                });
    }

    @Test
    void withoutSpringWebThereIsNoFileParts() {
        runner.withClassLoader(new FilteredClassLoader(FilePart.class))
                .run(context -> assertThat(context)
                        .hasNotFailed()
                        .hasSingleBean(SluiceTransfers.class)
                        .doesNotHaveBean(SluiceFileParts.class));
    }

    static Flux<DataBuffer> buffers(String... parts) {
        return Flux.fromArray(parts)
                .map(part -> DefaultDataBufferFactory.sharedInstance.wrap(part.getBytes(StandardCharsets.UTF_8)));
    }
}
