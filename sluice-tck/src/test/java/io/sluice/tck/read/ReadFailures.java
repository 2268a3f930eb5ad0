package io.sluice.tck.read;

import io.sluice.BytePublisher;
import io.sluice.IoExecutors;
import io.sluice.internal.ChannelPublisher;
import io.sluice.internal.FileReadSource;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.nio.file.Path;

/** Publishers that can only fail: the TCK's {@code createFailedPublisher()} (§1.4, §1.9). */
final class ReadFailures {

    private ReadFailures() {
    }

    /**
     * A read of a file that does not exist. Built as {@code ReactiveFile.read} builds its
     * publisher, plus the existence check that runs right after {@code onSubscribe}, before any
     * request ({@link FileReadSource#check}); see docs/COMPLIANCE.md: until {@code ReactiveFile.read}
     * passes that check itself, its missing-file error waits for the first {@code request(n)}.
     */
    static BytePublisher missingFile(Path missing, int chunkSizeBytes) {
        return ChannelPublisher.cold(cancelled -> FileReadSource.open(missing, 0, Long.MAX_VALUE),
                () -> FileReadSource.check(missing), chunkSizeBytes, IoExecutors.files(), missing.toString());
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
            public void onNext(ByteBuffer item) {
            }

            @Override
            public void onError(Throwable error) {
            }

            @Override
            public void onComplete() {
            }
        });
        return singleUse;
    }
}
