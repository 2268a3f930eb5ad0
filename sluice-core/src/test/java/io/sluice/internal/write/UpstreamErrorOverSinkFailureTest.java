package io.sluice.internal.write;

import io.sluice.WriteOptions;
import io.sluice.testing.Bytes;
import io.sluice.testing.ManualExecutor;
import io.sluice.testing.TestPublishers;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * W11: once the upstream's error has arrived, it is what the write fails with, even when the sink
 * then fails to open the target or to write what came before the error; the sink's failure is
 * suppressed in it. One test for each place the sink can fail.
 */
class UpstreamErrorOverSinkFailureTest {

    @Test
    void anUpstreamErrorFailsTheWriteWithThatErrorWhenTheFlushBeforeItFails_W11() throws Exception {
        // 1 KiB items, each asked for on its own, are staged on a file (ST2): the flush before the
        // upstream's error ends the write is the first write call
        assertUpstreamErrorReportedWhenTheSinkFails(
                upstreamError -> TestPublishers.failingAt(Bytes.random(4 * 1024, 41), 1024, 2, upstreamError));
    }

    @Test
    void anUpstreamErrorFailsTheWriteWithThatErrorWhenTheBatchBeforeItFails_W11() throws Exception {
        // the error arrives inside the first request, right behind its one item, a lone heap item
        // that the batch writes as it is
        assertUpstreamErrorReportedWhenTheSinkFails(upstreamError ->
                subscriber -> subscriber.onSubscribe(new Subscription() {
                    private boolean done;

                    @Override
                    public void request(long n) {
                        if (!done) {
                            done = true;
                            subscriber.onNext(ByteBuffer.wrap(Bytes.random(1024, 43)));
                            subscriber.onError(upstreamError); // needs no demand
                        }
                    }

                    @Override
                    public void cancel() {
                        done = true;
                    }
                }));
    }

    @Test
    void anUpstreamErrorBeforeTheOpenIsWhatTheWriteFailsWithWhenTheOpenFails_W11() throws Exception {
        // the drain runs on an executor the test steps: the upstream fails before the first pass
        // opens the target, and the open fails too
        IOException upstreamError = new IOException("upload aborted");
        IOException denied = new IOException("Permission denied");
        ManualExecutor drain = new ManualExecutor();
        ChannelWriteSubscriber writer = new ChannelWriteSubscriber(
                new ChannelSink() {
                    @Override
                    protected void openTarget() throws IOException {
                        throw denied;
                    }
                },
                WriteOptions.defaults(),
                drain,
                "unopenable");
        writer.onSubscribe(new Subscription() {
            @Override
            public void request(long n) {}

            @Override
            public void cancel() {}
        });
        writer.onError(upstreamError);
        drain.runAll();

        ExecutionException failed =
                assertThrows(ExecutionException.class, () -> writer.result().get(10, TimeUnit.SECONDS));
        assertSame(upstreamError, failed.getCause());
        assertEquals(List.of(denied), List.of(upstreamError.getSuppressed()));
    }

    /**
     * The sink fails writing what came before the upstream's error: the stage must still fail with
     * the upstream's error (W11), the sink's failure suppressed in it, and the channel be closed.
     */
    private static void assertUpstreamErrorReportedWhenTheSinkFails(
            Function<IOException, Publisher<ByteBuffer>> failingUpstream) throws Exception {
        IOException upstreamError = new IOException("upload aborted");
        IOException diskFull = new IOException("No space left on device");
        WriteOnlyFileChannel full = new WriteOnlyFileChannel() {
            @Override
            public int write(ByteBuffer source) throws IOException {
                throw diskFull;
            }
        };
        ChannelWriteSubscriber writer = new ChannelWriteSubscriber(
                new ChannelSink(full), WriteOptions.defaults().withExecutor(Runnable::run), Runnable::run, "full disk");

        failingUpstream.apply(upstreamError).subscribe(writer);

        ExecutionException failed =
                assertThrows(ExecutionException.class, () -> writer.result().get(10, TimeUnit.SECONDS));
        assertSame(upstreamError, failed.getCause());
        assertEquals(List.of(diskFull), List.of(upstreamError.getSuppressed()));
        assertFalse(full.isOpen(), "the channel is closed");
    }
}
