package io.sluice.server.ws;

import io.sluice.demand.Demand;
import io.sluice.demand.DemandStrategy;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** How each client's subscriber asks the generator for messages. */
public enum FanOutLane {

    /** sluice's adaptive demand under a byte cap of {@link #BOUNDED_MAX_QUEUED_BYTES} per client. */
    BOUNDED(Demand.adaptive(), FanOutLane.BOUNDED_MAX_QUEUED_BYTES, false),
    /** The seed's window: at most 100 messages requested and not yet sent, the next 98 asked for when 2 are left. */
    FIXED(Demand.fixed(98, 2), FanOutLane.BOUNDED_MAX_QUEUED_BYTES, false),
    /** The control: everything requested at once, so a slow client's messages queue without bound. */
    UNBOUNDED(Demand.unbounded(), Long.MAX_VALUE, false),
    /**
     * {@link #BOUNDED}'s demand and byte cap, each pass's messages sent as batched frames and flushed
     * once at its end, so that Jetty may write them in one system call. Opt-in: not in {@link #defaults()}.
     */
    BOUNDED_BATCHED(Demand.adaptive(), FanOutLane.BOUNDED_MAX_QUEUED_BYTES, true);

    /** The byte cap per client of the bounded lanes: 64 KiB, 262 messages; 64 MiB for 1,000 clients. */
    public static final long BOUNDED_MAX_QUEUED_BYTES = 64 * 1024; // a constant: the lanes above may name it

    private final DemandStrategy demand;
    private final long maxQueuedBytes;
    private final boolean batched;

    FanOutLane(DemandStrategy demand, long maxQueuedBytes, boolean batched) {
        this.demand = demand;
        this.maxQueuedBytes = maxQueuedBytes;
        this.batched = batched;
    }

    /** The lanes a run has unless {@code --lanes} names others: bounded, fixed, unbounded. */
    public static List<FanOutLane> defaults() {
        return List.of(BOUNDED, FIXED, UNBOUNDED);
    }

    /** The strategy each client's ledger creates its controller from. */
    public DemandStrategy demand() {
        return demand;
    }

    /** The byte cap of each client's ledger (not applied by {@link Demand#unbounded()}). */
    public long maxQueuedBytes() {
        return maxQueuedBytes;
    }

    /** Whether each pass's sends are batched frames flushed once at the pass's end (else one write each). */
    public boolean batched() {
        return batched;
    }

    /**
     * The name on the command line and in reports: {@code bounded}, {@code fixed}, {@code unbounded},
     * {@code bounded-batched}. Committed results hold these names: never rename one.
     */
    public String flag() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The lane a flag names. */
    public static FanOutLane parse(String flag) {
        return Arrays.stream(values())
                .filter(lane -> lane.flag().equals(flag))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("lane must be one of "
                        + Arrays.stream(values()).map(FanOutLane::flag).collect(Collectors.joining(", ")) + ", was "
                        + flag));
    }
}
