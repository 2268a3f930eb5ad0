package io.sluice.spring;

import io.sluice.ReactiveFile;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBuffer;
import reactor.core.publisher.Flux;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

import static io.sluice.spring.DataBufferFilesWriteTest.random;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Netty is optional: a read runs on a class path without it (sluice, Spring, Reactor and these
 * tests only), where loading any Netty class would fail with {@code NoClassDefFoundError}.
 */
class WithoutNettyTest {

    @TempDir
    Path dir;

    @Test
    void aReadRunsAndGivesEveryChunkBackWithoutNettyOnTheClassPath() throws Exception {
        Path file = Files.write(dir.resolve("source"), random(200_000, 7));
        Class<?>[] needed = {
            DataBufferFiles.class,
            ReactiveFile.class,
            DataBuffer.class,
            LogFactory.class,
            Flux.class,
            Publisher.class,
            WithoutNettyTest.class
        };
        URL[] path = new URL[needed.length];
        for (int i = 0; i < needed.length; i++) {
            path[i] = needed[i].getProtectionDomain().getCodeSource().getLocation();
        }

        try (URLClassLoader withoutNetty = new URLClassLoader(path, ClassLoader.getPlatformClassLoader())) {
            assertThrows(ClassNotFoundException.class, () -> withoutNetty.loadClass("io.netty.buffer.ByteBuf"));
            @SuppressWarnings("unchecked")
            Function<Path, String> read = (Function<Path, String>) withoutNetty
                    .loadClass(ReadWithDefaultFactory.class.getName())
                    .getDeclaredConstructor()
                    .newInstance();

            assertEquals("200000 bytes, every chunk back", read.apply(file));
        }
    }

    /** Runs in the class loader without Netty: reads with a factory that is not Netty's. */
    public static final class ReadWithDefaultFactory implements Function<Path, String> {

        @Override
        public String apply(Path file) {
            io.sluice.ChunkPool pool = io.sluice.ChunkPool.create(4096, 4);
            long bytes = DataBufferFiles.read(
                            file,
                            org.springframework.core.io.buffer.DefaultDataBufferFactory.sharedInstance,
                            io.sluice.ReadOptions.defaults().withLentChunks(pool))
                    .map(buffer -> {
                        int count = buffer.readableByteCount();
                        org.springframework.core.io.buffer.DataBufferUtils.release(buffer);
                        return (long) count;
                    })
                    .reduce(0L, Long::sum)
                    .block(java.time.Duration.ofSeconds(30));
            String back = pool.allocatedChunks() == pool.idleChunks() ? "every chunk back" : "chunks out: " + pool;
            return bytes + " bytes, " + back;
        }
    }
}
