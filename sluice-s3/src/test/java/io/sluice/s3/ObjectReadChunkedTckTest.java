package io.sluice.s3;

import org.reactivestreams.Publisher;
import org.reactivestreams.tck.PublisherVerification;
import org.reactivestreams.tck.TestEnvironment;
import org.testng.annotations.AfterClass;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.nio.ByteBuffer;

/**
 * The Reactive Streams TCK against {@link ReactiveObject#read()} over the SDK's real S3 pipeline,
 * with a scripted HTTP client ({@link ChunkedHttpClient}) that sends an object of N bytes as N
 * items, so the rules that need several elements run too ({@link ObjectReadTckTest} runs the rest
 * against S3Proxy, where the HTTP client decides the chunking).
 */
public class ObjectReadChunkedTckTest extends PublisherVerification<ByteBuffer> {

    private final ChunkedHttpClient http = new ChunkedHttpClient();
    private final S3AsyncClient client = ChunkedHttpClient.s3Client(http);

    public ObjectReadChunkedTckTest() {
        super(new TestEnvironment(2000, 300), 1000);
    }

    @AfterClass(alwaysRun = true)
    public void close() {
        client.close();
        http.close();
    }

    @Override
    public Publisher<ByteBuffer> createPublisher(long elements) {
        return ReactiveObject.of(client, "chunked", Long.toString(elements)).read();
    }

    @Override
    public long maxElementsFromPublisher() {
        return 4096;
    }

    @Override
    public Publisher<ByteBuffer> createFailedPublisher() {
        return null; // a read sends nothing before the first request
    }
}
