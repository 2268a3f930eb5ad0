package io.sluice.s3;

import org.reactivestreams.Publisher;
import org.reactivestreams.tck.PublisherVerification;
import org.reactivestreams.tck.TestEnvironment;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.nio.ByteBuffer;

/**
 * The Reactive Streams TCK against {@link ReactiveObject#read()} on S3Proxy. The SDK's HTTP client
 * decides how a body is cut into items, so only bodies whose item count is certain are offered:
 * an empty object (0 items) and a one-byte object (1 item); rules that need more elements are
 * skipped by the TCK. There is no failed publisher: a read sends nothing before the first
 * request, so a missing key is reported only after one (see {@code ObjectReadTest}).
 */
public class ObjectReadTckTest extends PublisherVerification<ByteBuffer> {

    static final String BUCKET = "tck";
    private S3ProxyServer server;
    private S3AsyncClient client;

    public ObjectReadTckTest() {
        super(new TestEnvironment(2000, 300), 1000);
    }

    @BeforeClass
    public void startServer() throws Exception {
        server = S3ProxyServer.start();
        client = server.newClient();
        client.createBucket(request -> request.bucket(BUCKET)).join();
        client.putObject(request -> request.bucket(BUCKET).key("0"), AsyncRequestBody.fromBytes(new byte[0]))
                .join();
        client.putObject(request -> request.bucket(BUCKET).key("1"), AsyncRequestBody.fromBytes(new byte[] {42}))
                .join();
    }

    @AfterClass(alwaysRun = true)
    public void stopServer() throws Exception {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Override
    public Publisher<ByteBuffer> createPublisher(long elements) {
        return ReactiveObject.of(client, BUCKET, Long.toString(elements)).read();
    }

    @Override
    public long maxElementsFromPublisher() {
        return 1;
    }

    @Override
    public Publisher<ByteBuffer> createFailedPublisher() {
        return null;
    }
}
