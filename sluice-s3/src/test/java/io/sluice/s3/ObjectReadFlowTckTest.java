package io.sluice.s3;

import org.reactivestreams.tck.TestEnvironment;
import org.reactivestreams.tck.flow.FlowPublisherVerification;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.nio.ByteBuffer;
import java.util.concurrent.Flow;

/** {@link ObjectReadTckTest}'s checks through the {@link Flow} face of the same publisher. */
public class ObjectReadFlowTckTest extends FlowPublisherVerification<ByteBuffer> {

    static final String BUCKET = "tck-flow";
    private S3ProxyServer server;
    private S3AsyncClient client;

    public ObjectReadFlowTckTest() {
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
    public Flow.Publisher<ByteBuffer> createFlowPublisher(long elements) {
        return ReactiveObject.of(client, BUCKET, Long.toString(elements)).read();
    }

    @Override
    public long maxElementsFromPublisher() {
        return 1;
    }

    @Override
    public Flow.Publisher<ByteBuffer> createFailedFlowPublisher() {
        return null;
    }
}
