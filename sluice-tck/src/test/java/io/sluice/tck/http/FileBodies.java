package io.sluice.tck.http;

import io.sluice.WriteOptions;
import io.sluice.http.FileBodyHandler;
import io.sluice.tck.support.Tck;
import io.sluice.tck.support.TempDir;
import io.sluice.testkit.OpenFiles;
import org.reactivestreams.tck.SubscriberWhiteboxVerification.WhiteboxSubscriberProbe;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import static io.sluice.testkit.ResponseInfos.ok;

/**
 * The body subscribers both TCK flavours test: {@code FileBodyHandler.to(file, defaults)} applied
 * to a 200 response, each writing a file of its own, probed by {@link ProbedBody}. After each test
 * every body's stage has ended (the test's, or cancelled here as a user cancels) and no file under
 * the directory is left open.
 */
final class FileBodies {

    private final TempDir dir = new TempDir("file-body");
    private final AtomicInteger fileNumber = new AtomicInteger();
    private final List<CompletableFuture<Long>> bodies = new CopyOnWriteArrayList<>();

    /** A new body subscriber, seen through the probe. */
    ProbedBody next(WhiteboxSubscriberProbe<List<ByteBuffer>> probe) {
        Path file = dir.resolve("body-" + fileNumber.incrementAndGet() + ".bin");
        HttpResponse.BodySubscriber<Long> body =
                FileBodyHandler.to(file, WriteOptions.defaults()).apply(ok());
        bodies.add(body.getBody().toCompletableFuture());
        return new ProbedBody(body, probe);
    }

    static List<ByteBuffer> element(int element) {
        return List.of(ByteBuffer.allocate(Integer.BYTES).putInt(0, element));
    }

    /** Ends every body's stage and fails if a file stays open past the TCK's timeout (W6). */
    void endBodiesAndCheckClosed() {
        List<CompletableFuture<Long>> ended = new ArrayList<>(bodies);
        bodies.removeAll(ended);
        ended.forEach(body -> body.cancel(true)); // no-op for a body that ended
        if (!OpenFiles.supported()) {
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Tck.TIMEOUT_MILLIS);
        List<String> open = OpenFiles.under(dir.root());
        while (!open.isEmpty() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            open = OpenFiles.under(dir.root());
        }
        if (!open.isEmpty()) {
            throw new AssertionError("W6: a body left files open after its stage ended: " + open);
        }
    }

    void close() {
        dir.close();
    }
}
