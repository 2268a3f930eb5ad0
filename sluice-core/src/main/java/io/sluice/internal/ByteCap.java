package io.sluice.internal;

/**
 * W4, the writer's byte cap on demand, in one place: the writer uses it, and so does the
 * adaptive model in the bench module, so the model runs the real rule.
 *
 * <p>The bound it gives, for cap {@code C}, assumed item size {@code L} (the largest item seen, or
 * the declared largest item if larger) and largest item of the write {@code M}: a request is made
 * only while {@code Q + (O + n) * L <= C} (or {@code n = 1} when nothing is held), and until the
 * next request at most those {@code O + n} items arrive, each at most {@code M}; so the held bytes
 * never exceed {@code max(M, C + (O + n) * (M - L))}. Since {@code O + n <= min(W, C / L)} for a
 * window {@code W} and {@code L} is at least the first non-empty item {@code F}, that is at most
 * {@code max(M, C + min(W, C / F) * (M - F))} for any sequence of sizes, and {@code max(C, M)} when
 * no item outgrows the assumed size ({@code WriteOptions} states it for users;
 * {@code ByteCapBoundPropertiesTest} checks it).
 */
public final class ByteCap {

    private ByteCap() {
    }

    /**
     * The most items a writer forwards now so that {@code queuedBytes + (outstanding + n) *
     * largestItemBytes <= maxQueuedBytes}; one item when nothing is queued or outstanding (progress,
     * and the probe before the item size is known), else 0 when there is no room.
     *
     * @param outstandingItems requested but not yet received
     * @param queuedItems received but not yet written
     * @param queuedBytes bytes of the queued items
     * @param largestItemBytes the largest item seen so far; 0 before the first
     * @param maxQueuedBytes the cap
     * @return the number of items that may be requested now, at least 0
     */
    public static long requestLimit(long outstandingItems, long queuedItems, long queuedBytes,
                                    long largestItemBytes, long maxQueuedBytes) {
        boolean idle = outstandingItems == 0 && queuedItems == 0;
        if (largestItemBytes == 0) {
            return idle ? 1 : 0;
        }
        long room = (maxQueuedBytes - queuedBytes) / largestItemBytes - outstandingItems;
        if (room <= 0) {
            return idle ? 1 : 0;
        }
        return room;
    }

    /**
     * The most items the cap lets a writer hold at once, queued plus outstanding, at the largest
     * item size seen: what the window can really be, whatever a controller asks for.
     *
     * @param largestItemBytes the largest item seen so far; 0 before the first
     * @param maxQueuedBytes the cap
     * @return {@code maxQueuedBytes / largestItemBytes}, at least 1; {@code Long.MAX_VALUE} before the
     *     first item, when the size is not known yet
     */
    public static long capItems(long largestItemBytes, long maxQueuedBytes) {
        if (largestItemBytes == 0) {
            return Long.MAX_VALUE;
        }
        return Math.max(1, maxQueuedBytes / largestItemBytes);
    }
}
