package io.sluice.server.ws;

import io.sluice.WriteListener;
import io.sluice.WriteSnapshot;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the server reports about its clients: messages sent (from each subscriber's
 * {@link WriteListener} passes), bytes queued now over all clients, subscribers live and ended.
 *
 * <p><b>Threading.</b> Any thread; the sums are read without a lock, so a reading is a moment's
 * approximation while clients come and go.
 */
final class FanOutStats {

    private final Set<SessionSubscriber> live = ConcurrentHashMap.newKeySet(); // opened and not ended
    private final LongAdder sent = new LongAdder(); // messages whose send completed
    private final LongAdder ended = new LongAdder(); // subscribers that released their subscription

    /** A listener for one subscriber: adds each pass's newly written messages to the total. */
    WriteListener newListener() {
        return new WriteListener() {
            private long writtenBefore; // called on the subscriber's passes only, never concurrently

            @Override
            public void onPass(WriteSnapshot snapshot) {
                sent.add(snapshot.writtenItems() - writtenBefore);
                writtenBefore = snapshot.writtenItems();
            }
        };
    }

    void opened(SessionSubscriber subscriber) {
        live.add(subscriber);
    }

    void ended(SessionSubscriber subscriber) {
        if (live.remove(subscriber)) {
            ended.increment();
        }
    }

    long sentMessages() {
        return sent.sum();
    }

    long liveSubscribers() {
        return live.size();
    }

    long endedSubscribers() {
        return ended.sum();
    }

    /** Bytes received from the generator and not yet sent, over every live client. */
    long queuedBytes() {
        return live.stream().mapToLong(SessionSubscriber::queuedBytes).sum();
    }
}
