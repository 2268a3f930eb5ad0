package io.sluice.reliability;

import io.sluice.ReactiveFile;
import io.sluice.WriteOptions;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The process {@link CrashTest} kills: writes version {@code args[1]} of the content
 * ({@link CrashTest#version}) to {@code args[0]} in atomic-replace mode. It prints {@code writing}
 * once the first chunk is produced, {@code written N} whenever the writer reports that N bytes
 * are in the (temporary) file, and {@code done} when the stage has completed.
 *
 * <p>With {@code args[2] = k >= 0} the upstream produces chunks {@code 0..k-1} (on its own thread)
 * and then never another: the write stalls with exactly {@code k} chunks in the temporary file, so
 * a kill after {@code written k*CHUNK_BYTES} lands mid-write by construction, not by luck.
 * Otherwise the upstream emits synchronously, inside the writer's requests.
 */
public final class AtomicWriterChild {

    static final int CHUNK_BYTES = 64 * 1024;
    /** Spreads the write over tens of milliseconds so that kills land inside it, not only around it. */
    static final long PAUSE_PER_CHUNK_NANOS = TimeUnit.MICROSECONDS.toNanos(300);

    private AtomicWriterChild() {}

    static int chunks(int version) {
        return (CrashTest.version(version).length + CHUNK_BYTES - 1) / CHUNK_BYTES;
    }

    public static void main(String[] args) throws Exception {
        Path target = Paths.get(args[0]);
        int version = Integer.parseInt(args[1]);
        int stallAtChunk = args.length > 2 ? Integer.parseInt(args[2]) : -1;
        byte[] content = CrashTest.version(version);
        Flux<ByteBuffer> upstream = Flux.range(0, chunks(version)).map(index -> {
            if (index == 0) {
                println("writing");
            } else {
                LockSupport.parkNanos(PAUSE_PER_CHUNK_NANOS); // pacing, not synchronisation
            }
            while (index == stallAtChunk) {
                LockSupport.park(); // never produces this chunk
            }
            int from = index * CHUNK_BYTES;
            return ByteBuffer.wrap(content, from, Math.min(CHUNK_BYTES, content.length - from))
                    .slice();
        });
        if (stallAtChunk >= 0) {
            // produce on another thread: a synchronous upstream stalling inside the writer's
            // request(n) would hold the drain, and the last written batch would go unreported
            upstream = upstream.subscribeOn(Schedulers.single());
        }
        long[] reported = {0};
        WriteOptions options = WriteOptions.defaults().withAtomicReplace().withListener(snapshot -> {
            if (snapshot.writtenBytes() > reported[0]) { // called serially, on the drain
                reported[0] = snapshot.writtenBytes();
                println("written " + snapshot.writtenBytes());
            }
        });
        ReactiveFile.of(target).write(upstream, options).toCompletableFuture().get(60, TimeUnit.SECONDS);
        println("done");
        System.exit(0);
    }

    private static void println(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
