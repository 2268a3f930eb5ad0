package io.sluice.internal.read;

import io.sluice.internal.AbortGate;

import java.io.IOException;

/**
 * The source of a read whose end is decided elsewhere: an atomic copy reads its source through a
 * read that the write subscribes, and when the copy's stage is completed from outside, the source
 * must be closed before the stage completes, as the target is, not later when the write's drain
 * gets round to cancelling the read. The read opens its source here, under an {@link AbortGate},
 * and {@link #closeNow()}, from the thread that completes the stage, closes it (waiting briefly
 * for an open in flight, G2) or makes sure it is never opened (G1). The read then fails on the
 * closed channel, which nobody hears: its subscriber, the write, has already ended.
 */
public final class OutsideClosableSource {

    private final AbortGate gate = new AbortGate();
    private volatile ReadSource opened; // the read's drain, under the gate -> closeNow(), under it

    /** The opener of the read: {@code opener} runs under the gate (G1). */
    public ReadSource.Opener wrap(ReadSource.Opener opener, Object what) {
        return cancelled -> gate.open(
                () -> {
                    ReadSource source = opener.open(cancelled);
                    opened = source;
                    return source;
                },
                what);
    }

    /** From any thread: closes the source, or keeps it from being opened; idempotent. */
    public void closeNow() {
        gate.abort(() -> {
            ReadSource source = opened;
            if (source != null) {
                try {
                    source.close();
                } catch (IOException ignored) {
                    // the operation was ended from outside; nobody is left to hear of it
                }
            }
        });
    }
}
