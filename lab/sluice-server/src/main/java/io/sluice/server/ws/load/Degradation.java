package io.sluice.server.ws.load;

import java.util.List;
import java.util.Locale;

/**
 * When the unbounded lane began to degrade, read from its time series: the first sample at which
 * its server's RSS passed idle + {@link FanOutFullGates#RSS_HEADROOM_BYTES}, or its delivery over
 * the last {@link #RATE_WINDOW_SAMPLES} samples fell below {@link #RATE_SHARE} of the best such
 * rate before, or else its last sample (the run's end, or the last one before its server died).
 * The bounded lanes' throughput is compared with the unbounded lane's over {@code [from(), seconds]}:
 * the window before it degraded, without the first {@link #WARM_UP_SECONDS} (the JIT's ramp).
 *
 * @param seconds the end of the window before the lane degraded, seconds since its load began
 * @param reason what ended the window
 */
record Degradation(double seconds, String reason) {

    /** Samples a delivery rate spans: one second at 250 ms. */
    static final int RATE_WINDOW_SAMPLES = 4;
    /** A rate below this share of the best one before counts as degraded. */
    static final double RATE_SHARE = 0.5;
    /** Seconds at the start of a lane left out of the throughput window, at most half of it. */
    static final double WARM_UP_SECONDS = 10;

    /** Where {@code series} (one lane's samples in time order) degraded; {@code idleRssBytes} is its server's RSS before the load. */
    static Degradation of(List<LaneSample> series, long idleRssBytes) {
        if (series.isEmpty()) {
            return new Degradation(0, "no samples");
        }
        long rssLimit = idleRssBytes + FanOutFullGates.RSS_HEADROOM_BYTES;
        double bestRate = 0;
        for (int i = 0; i < series.size(); i++) {
            LaneSample sample = series.get(i);
            if (sample.rssBytes() > rssLimit) {
                return new Degradation(
                        sample.seconds(),
                        String.format(
                                Locale.ROOT,
                                "RSS passed idle + 256 MiB (%.0f MiB) at %.2f s",
                                LaneResult.mib(sample.rssBytes()),
                                sample.seconds()));
            }
            if (i >= RATE_WINDOW_SAMPLES) {
                double rate = sample.messagesPerSecondSince(series.get(i - RATE_WINDOW_SAMPLES));
                if (rate < RATE_SHARE * bestRate) {
                    return new Degradation(
                            sample.seconds(),
                            String.format(
                                    Locale.ROOT,
                                    "delivery fell to %.0f msg/s, below %.1fx its best %.0f, at %.2f s",
                                    rate,
                                    RATE_SHARE,
                                    bestRate,
                                    sample.seconds()));
                }
                bestRate = Math.max(bestRate, rate);
            }
        }
        LaneSample last = series.get(series.size() - 1);
        return new Degradation(
                last.seconds(),
                String.format(Locale.ROOT, "did not degrade before its last sample at %.2f s", last.seconds()));
    }

    /** The start of the throughput window: {@link #WARM_UP_SECONDS}, or half the window if it is shorter than twice that. */
    double from() {
        return Math.min(WARM_UP_SECONDS, seconds / 2);
    }

    /** The messages/s {@code series} delivered over {@code [from(), seconds]}. */
    double rate(List<LaneSample> series) {
        return (messagesAt(series, seconds) - messagesAt(series, from())) / (seconds - from());
    }

    /** The window as words: "from 10.00 s to 61.25 s". */
    String window() {
        return String.format(Locale.ROOT, "from %.2f s to %.2f s", from(), seconds);
    }

    /**
     * Messages {@code series} had delivered at {@code seconds}, interpolated linearly between the
     * samples around it (the last sample's count past the end; 0 before the first sample, as at the
     * load's start).
     */
    static double messagesAt(List<LaneSample> series, double seconds) {
        double previousSeconds = 0;
        double previousMessages = 0;
        for (LaneSample sample : series) {
            if (sample.seconds() >= seconds) {
                double span = sample.seconds() - previousSeconds;
                return span <= 0
                        ? sample.messages()
                        : previousMessages
                                + (sample.messages() - previousMessages) * (seconds - previousSeconds) / span;
            }
            previousSeconds = sample.seconds();
            previousMessages = sample.messages();
        }
        return previousMessages;
    }
}
