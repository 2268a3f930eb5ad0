package io.sluice;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A shared pool whose chunk size exceeds its budget must not lend a fresh direct buffer per chunk:
 * direct memory is freed only when the collector runs, so a read whose consumer gives back each
 * chunk at once would need System.gc() from Bits.reserveMemory to go on, and with
 * -XX:+DisableExplicitGC fails with "Cannot reserve ... direct buffer memory" after
 * MaxDirectMemorySize / chunk chunks. Heap chunks are reclaimed by any collection.
 */
class HugeLentChunksMemoryTest {

    @TempDir
    Path directory;

    @Test
    void aLentReadOfHugeChunksGivenBackAtOnceDoesNotRunOutOfDirectMemory() throws Exception {
        Path file = directory.resolve("file");
        byte[] block = new byte[1 << 20];
        try (var out = Files.newOutputStream(file)) {
            for (int i = 0; i < 64; i++) {
                out.write(block);
            }
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(
                        java,
                        "-Xmx32m",
                        "-XX:MaxDirectMemorySize=32m",
                        "-XX:+DisableExplicitGC",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Child.class.getName(),
                        file.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(60, TimeUnit.SECONDS));
        assertTrue(out.contains("read 67108864 error=null"), out);
    }

    /** Reads the file in 8 MiB lent chunks (budget 4 MiB at -Xmx32m), giving each back at once. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            int chunk = 8 << 20;
            AtomicLong bytes = new AtomicLong();
            CompletableFuture<Throwable> done = new CompletableFuture<>();
            ReactiveFile.of(Path.of(args[0]))
                    .read(ReadOptions.defaults().withChunkSize(chunk).withLentChunks())
                    .subscribe(new Subscriber<ByteBuffer>() {
                        Subscription s;

                        public void onSubscribe(Subscription subscription) {
                            this.s = subscription;
                            subscription.request(1);
                        }

                        public void onNext(ByteBuffer buffer) {
                            bytes.addAndGet(buffer.remaining());
                            ChunkPool.giveBack(buffer);
                            s.request(1);
                        }

                        public void onError(Throwable error) {
                            done.complete(error);
                        }

                        public void onComplete() {
                            done.complete(null);
                        }
                    });
            Throwable error = done.get(50, TimeUnit.SECONDS);
            System.out.println(
                    "maxChunks " + ChunkPool.shared(chunk).maxChunks() + " read " + bytes.get() + " error=" + error);
        }
    }
}
