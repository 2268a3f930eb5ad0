package io.sluice.server.ws;

import io.sluice.demand.Demand;
import io.sluice.demand.DemandStrategy;

import java.util.Arrays;
import java.util.Locale;

/** How each client's subscriber asks the generator for messages. */
public enum FanOutLane {

    /** sluice's adaptive demand under a byte cap of {@link #BOUNDED_MAX_QUEUED_BYTES} per client. */
    BOUNDED(Demand.adaptive(), FanOutLane.BOUNDED_MAX_QUEUED_BYTES),
    /** The seed's window: at most 100 messages requested and not yet sent, the next 98 asked for when 2 are left. */
    FIXED(Demand.fixed(98, 2), FanOutLane.BOUNDED_MAX_QUEUED_BYTES),
    /** The control: everything requested at once, so a slow client's messages queue without bound. */
    UNBOUNDED(Demand.unbounded(), Long.MAX_VALUE);

    /** The byte cap per client of the bounded lanes: 64 KiB, 262 messages; 64 MiB for 1,000 clients. */
    public static final long BOUNDED_MAX_QUEUED_BYTES = 64 * 1024; // a constant: the lanes above may name it

    private final DemandStrategy demand;
    private final long maxQueuedBytes;

    FanOutLane(DemandStrategy demand, long maxQueuedBytes) {
        this.demand = demand;
        this.maxQueuedBytes = maxQueuedBytes;
    }

    /** The strategy each client's ledger creates its controller from. */
    public DemandStrategy demand() {
        return demand;
    }

    /** The byte cap of each client's ledger (not applied by {@link Demand#unbounded()}). */
    public long maxQueuedBytes() {
        return maxQueuedBytes;
    }

    /** The name on the command line and in reports: {@code bounded}, {@code fixed}, {@code unbounded}. */
    public String flag() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The lane a flag names. */
    public static FanOutLane parse(String flag) {
        return Arrays.stream(values()).filter(lane -> lane.flag().equals(flag)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("lane must be bounded, fixed or unbounded, was " + flag));
    }
}
