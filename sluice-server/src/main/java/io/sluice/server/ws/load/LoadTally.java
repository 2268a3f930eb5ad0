package io.sluice.server.ws.load;

import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The totals of one lane's clients, thread-safe.
 *
 * @param gaps sequence numbers skipped ahead
 * @param duplicates sequence numbers seen again or gone back
 * @param firstError the first client error, or null
 */
record LoadTally(LongAdder fastMessages, LongAdder slowMessages, LongAdder gaps, LongAdder duplicates,
                 AtomicReference<Throwable> firstError) {

    LoadTally() {
        this(new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder(), new AtomicReference<>());
    }
}
