package io.sluice.tck.read;

import io.sluice.BytePublisher;
import io.sluice.ReactiveFile;
import io.sluice.ReadOptions;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.nio.file.Path;

/** Publishers that can only fail: the TCK's {@code createFailedPublisher()} (§1.4, §1.9). */
final class ReadFailures {

    private ReadFailures() {}

    /** A read of a file that does not exist, through the public entry point (§1.9). */
    static BytePublisher missingFile(Path missing, int chunkSizeBytes) {
        return ReactiveFile.of(missing).read(ReadOptions.defaults().withChunkSize(chunkSizeBytes));
    }

    /**
     * A single-use publisher (over a channel or stream the caller opened) whose one read was
     * taken and cancelled: every later subscriber is refused with {@code onSubscribe} then
     * {@code onError} (§1.9, §1.11).
     */
    static BytePublisher alreadyConsumed(BytePublisher singleUse) {
        singleUse.subscribe(new Subscriber<ByteBuffer>() {
            @Override
            public void onSubscribe(Subscription subscription) {
                subscription.cancel();
            }

            @Override
            public void onNext(ByteBuffer item) {}

            @Override
            public void onError(Throwable error) {}

            @Override
            public void onComplete() {}
        });
        return singleUse;
    }
}
