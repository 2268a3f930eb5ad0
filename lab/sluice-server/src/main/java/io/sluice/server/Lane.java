package io.sluice.server;

/**
 * The threading model under test. The handler body is the same for every lane; only how a request
 * waits for the disk and the network changes.
 */
public enum Lane {
    /** 200 platform threads; the request thread blocks on the socket, the disk and the delay. */
    A("platform threads, blocking"),
    /** One virtual thread per request, the same blocking code as lane A (JDK 21+). */
    B("virtual threads, blocking"),
    /** Non-blocking: sluice publishers and the adaptive writer; the delay is a timer. */
    C("non-blocking, sluice adaptive demand"),
    /** Control for lane C: uploads demand everything at once, downloads queue the whole file. */
    C_UNBOUNDED("non-blocking, unbounded demand (control)");

    private final String description;

    Lane(String description) {
        this.description = description;
    }

    /** Whether requests on this lane hold a thread while they wait. */
    public boolean blocking() {
        return this == A || this == B;
    }

    /** One line for logs and reports. */
    public String description() {
        return description;
    }

    /** The flag value: {@code A}, {@code B}, {@code C} or {@code C-unbounded}. */
    public String flag() {
        return this == C_UNBOUNDED ? "C-unbounded" : name();
    }

    /** Parses a flag value (case-insensitive). */
    public static Lane parse(String flag) {
        for (Lane lane : values()) {
            if (lane.flag().equalsIgnoreCase(flag.trim())) {
                return lane;
            }
        }
        throw new IllegalArgumentException("unknown lane '" + flag + "': expected A, B, C or C-unbounded");
    }

    @Override
    public String toString() {
        return flag() + " (" + description + ")";
    }
}
