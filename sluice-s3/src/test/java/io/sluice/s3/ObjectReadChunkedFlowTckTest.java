package io.sluice.s3;

import org.reactivestreams.tck.TestEnvironment;
import org.reactivestreams.tck.flow.FlowPublisherVerification;
import org.testng.annotations.AfterClass;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.nio.ByteBuffer;
import java.util.concurrent.Flow;

/** {@link ObjectReadChunkedTckTest}'s checks through the {@link Flow} face of the same publisher. */
public class ObjectReadChunkedFlowTckTest extends FlowPublisherVerification<ByteBuffer> {

    private final ChunkedHttpClient http = new ChunkedHttpClient();
    private final S3AsyncClient client = ChunkedHttpClient.s3Client(http);

    public ObjectReadChunkedFlowTckTest() {
        super(new TestEnvironment(2000, 300), 1000);
    }

    @AfterClass(alwaysRun = true)
    public void close() {
        client.close();
        http.close();
    }

    @Override
    public Flow.Publisher<ByteBuffer> createFlowPublisher(long elements) {
        return ReactiveObject.of(client, "chunked", Long.toString(elements)).read();
    }

    @Override
    public long maxElementsFromPublisher() {
        return 4096;
    }

    @Override
    public Flow.Publisher<ByteBuffer> createFailedFlowPublisher() {
        return null; // a read sends nothing before the first request
    }
}
