package io.sluice.tck.read;

import io.sluice.ReactiveFile;
import io.sluice.tck.support.ProtocolChecker;
import io.sluice.tck.support.Tck;
import io.sluice.tck.support.TempDir;
import org.testng.annotations.AfterClass;
import org.testng.annotations.Test;

import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;

import static org.testng.Assert.assertTrue;

/**
 * A read of a missing file through the public entry point, {@link ReactiveFile#read()}: the
 * TCK's failed-publisher rule (required_spec109_mayRejectCalls..., optional_spec104) on the
 * public path, with and without a request.
 */
public class MissingFileReadTest {

    private final TempDir dir = new TempDir("missing");

    @AfterClass(alwaysRun = true)
    public void deleteDir() {
        dir.close();
    }

    @Test
    public void failsWithNoSuchFileExceptionOnceRequested() throws InterruptedException {
        ProtocolChecker<ByteBuffer> subscriber = new ProtocolChecker<>();
        ReactiveFile.of(dir.resolve("missing.bin")).read().subscribe(subscriber);
        assertTrue(subscriber.awaitSubscribed(Tck.TIMEOUT_MILLIS), "§1.9: no onSubscribe");
        subscriber.request(1);
        assertTrue(subscriber.awaitTerminated(Tck.TIMEOUT_MILLIS), "no onError after request(1)");
        assertTrue(
                subscriber.error() instanceof NoSuchFileException,
                "expected NoSuchFileException, got " + subscriber.error());
        assertTrue(subscriber.violations().isEmpty(), subscriber.violations().toString());
    }

    @Test
    public void failsRightAfterOnSubscribeWithoutARequest_1_9() throws InterruptedException {
        ProtocolChecker<ByteBuffer> subscriber = new ProtocolChecker<>();
        ReactiveFile.of(dir.resolve("missing.bin")).read().subscribe(subscriber);
        assertTrue(subscriber.awaitSubscribed(Tck.TIMEOUT_MILLIS), "§1.9: no onSubscribe");
        assertTrue(
                subscriber.awaitTerminated(Tck.TIMEOUT_MILLIS),
                "§1.9/§1.4: a publisher that cannot "
                        + "serve must signal onError after onSubscribe, without waiting for a request");
        assertTrue(
                subscriber.error() instanceof NoSuchFileException,
                "expected NoSuchFileException, got " + subscriber.error());
        assertTrue(subscriber.violations().isEmpty(), subscriber.violations().toString());
    }
}
