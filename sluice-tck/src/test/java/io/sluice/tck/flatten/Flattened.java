package io.sluice.tck.flatten;

import io.sluice.internal.write.BufferFlattener;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.Flow;

/** Publishers the flattener TCK classes test: a flattener already subscribed to its upstream. */
final class Flattened {

    private Flattened() {}

    /** {@code elements} buffers, reaching the flattener in lists of 1 to 3. */
    static Flow.Publisher<ByteBuffer> of(long elements) {
        BufferFlattener flattener = new BufferFlattener();
        new ListUpstream(elements).subscribe(flattener);
        return flattener;
    }

    /** A flattener whose upstream failed before anyone subscribed to it (a reset connection). */
    static Flow.Publisher<ByteBuffer> failed() {
        BufferFlattener flattener = new BufferFlattener();
        flattener.onSubscribe(new Flow.Subscription() {
            @Override
            public void request(long n) {}

            @Override
            public void cancel() {}
        });
        flattener.onError(new IOException("connection reset (the TCK's failed upstream)"));
        return flattener;
    }
}
