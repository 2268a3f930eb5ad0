package io.sluice.reliability;

import io.sluice.ReactiveFile;
import io.sluice.WriteOptions;
import reactor.core.publisher.Flux;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The process {@link CrashTest} kills: writes version {@code args[1]} of the content
 * ({@link CrashTest#version}) to {@code args[0]} in atomic-replace mode, printing {@code writing}
 * once the first chunk is out and {@code done} when the stage has completed.
 */
public final class AtomicWriterChild {

    static final int CHUNK_BYTES = 64 * 1024;
    /** Spreads the write over tens of milliseconds so that kills land inside it, not only around it. */
    static final long PAUSE_PER_CHUNK_NANOS = TimeUnit.MICROSECONDS.toNanos(300);

    private AtomicWriterChild() {
    }

    public static void main(String[] args) throws Exception {
        Path target = Paths.get(args[0]);
        int version = Integer.parseInt(args[1]);
        byte[] content = CrashTest.version(version);
        int chunks = (content.length + CHUNK_BYTES - 1) / CHUNK_BYTES;
        Flux<ByteBuffer> upstream = Flux.range(0, chunks)
                .map(index -> {
                    if (index == 0) {
                        System.out.println("writing");
                        System.out.flush();
                    } else {
                        LockSupport.parkNanos(PAUSE_PER_CHUNK_NANOS);   // pacing, not synchronisation
                    }
                    int from = index * CHUNK_BYTES;
                    return ByteBuffer.wrap(content, from, Math.min(CHUNK_BYTES, content.length - from)).slice();
                });
        ReactiveFile.of(target).write(upstream, WriteOptions.defaults().withAtomicReplace())
                .toCompletableFuture().get(60, TimeUnit.SECONDS);
        System.out.println("done");
        System.out.flush();
        System.exit(0);
    }
}
