package io.sluice.tck.http;

import io.sluice.WriteOptions;
import io.sluice.http.FileBodyHandler;
import io.sluice.tck.support.OpenFiles;
import io.sluice.tck.support.Tck;
import io.sluice.tck.support.TempDir;
import org.reactivestreams.tck.flow.FlowSubscriberWhiteboxVerification;
import org.testng.annotations.AfterClass;
import org.testng.annotations.AfterMethod;

import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * TCK whitebox subscriber rules (java.util.concurrent.Flow) for the body subscriber
 * {@code FileBodyHandler.to(file, WriteOptions.defaults())} gives a 200 response: the
 * {@code Flow.Subscriber<List<ByteBuffer>>} the {@code HttpClient} drives (see {@link ProbedBody}).
 * After every test each body's stage has ended (the test's, or cancelled here as a user cancels)
 * and no file under the test directory is left open.
 */
public class FileBodySubscriberTckTest extends FlowSubscriberWhiteboxVerification<List<ByteBuffer>> {

    private final TempDir dir = new TempDir("file-body");
    private final AtomicInteger fileNumber = new AtomicInteger();
    private final List<CompletableFuture<Long>> bodies = new CopyOnWriteArrayList<>();

    public FileBodySubscriberTckTest() {
        super(Tck.environment());
    }

    @Override
    protected Flow.Subscriber<List<ByteBuffer>> createFlowSubscriber(WhiteboxSubscriberProbe<List<ByteBuffer>> probe) {
        Path file = dir.resolve("body-" + fileNumber.incrementAndGet() + ".bin");
        HttpResponse.BodySubscriber<Long> body = FileBodyHandler.to(file, WriteOptions.defaults()).apply(ok());
        bodies.add(body.getBody().toCompletableFuture());
        return new ProbedBody(body, probe);
    }

    @Override
    public List<ByteBuffer> createElement(int element) {
        return List.of(ByteBuffer.allocate(Integer.BYTES).putInt(0, element));
    }

    @AfterMethod(alwaysRun = true)
    public void endBodiesAndCheckClosed() {
        List<CompletableFuture<Long>> ended = new ArrayList<>(bodies);
        bodies.removeAll(ended);
        ended.forEach(body -> body.cancel(true));                // no-op for a body that ended
        if (!OpenFiles.supported()) {
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Tck.TIMEOUT_MILLIS);
        List<Path> open = OpenFiles.under(dir.root());
        while (!open.isEmpty() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            open = OpenFiles.under(dir.root());
        }
        if (!open.isEmpty()) {
            throw new AssertionError("W6: a body left files open after its stage ended: " + open);
        }
    }

    @AfterClass(alwaysRun = true)
    public void closeDirectory() {
        dir.close();
    }

    private static HttpResponse.ResponseInfo ok() {
        return new HttpResponse.ResponseInfo() {
            @Override
            public int statusCode() {
                return 200;
            }

            @Override
            public HttpHeaders headers() {
                return HttpHeaders.of(Map.of(), (name, value) -> true);
            }

            @Override
            public HttpClient.Version version() {
                return HttpClient.Version.HTTP_1_1;
            }
        };
    }
}
