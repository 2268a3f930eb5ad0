package io.sluice.lab.s3;

import io.sluice.lab.ByteSizes;

import java.util.List;
import java.util.Map;

/**
 * How the SDK's tuned transfers ({@link Transfer#tuned()}) configure their client beyond its defaults:
 * the multipart client's part size (its threshold alike: a file larger than one part goes in parts),
 * and how much at once: the Netty client's most connections and the multipart client's most parts in
 * flight per upload, one figure for both (each 50 by default; raising only the connections changes
 * nothing for one upload, whose parts the multipart client holds to its own limit). The SDK's guide
 * shows these set by the application ({@code multipartConfiguration(..)}, {@code maxConcurrency(..)})
 * and gives no better value than its defaults, so they are the harness's options and a run records
 * them in {@code run.txt}.
 *
 * @param partSizeBytes  each part's size, and the size above which a file goes in parts
 * @param maxConnections the connections the client opens at most, and the parts in flight per upload
 */
record SdkTuning(long partSizeBytes, int maxConnections) {

    /** The SDK's own values: the tuned transfers run as the default ones. */
    static final SdkTuning SDK_DEFAULTS = new SdkTuning(8L << 20, 50);

    /** The options that name {@link #SDK_DEFAULTS}, as {@link #of} reads them. */
    static final Map<String, String> DEFAULT_OPTIONS = Map.of("sdk-part-size", "8MiB", "sdk-connections", "50");

    /** The smallest part S3 accepts, but for the last. */
    static final long MIN_PART_BYTES = 5L << 20;

    SdkTuning {
        if (partSizeBytes < MIN_PART_BYTES) {
            throw new IllegalArgumentException("an SDK part of " + partSizeBytes + " bytes: S3 needs at least "
                    + MIN_PART_BYTES + " for every part but the last");
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("at most " + maxConnections + " SDK connections: give at least 1");
        }
    }

    /** The tuning {@code --sdk-part-size} and {@code --sdk-connections} of {@code options} name. */
    static SdkTuning of(Map<String, String> options) {
        return new SdkTuning(
                ByteSizes.parse(options.get("sdk-part-size")), Integer.parseInt(options.get("sdk-connections")));
    }

    /** {@code parts of 16 MiB, 200 at once}, for run.txt and the tables. */
    String inWords() {
        return "parts of " + ByteSizes.format(partSizeBytes) + ", " + maxConnections
                + " at once (connections, and parts in flight per upload)";
    }

    /** This tuning as a client JVM's options. */
    List<String> args() {
        return List.of(
                "--sdk-part-size", Long.toString(partSizeBytes), "--sdk-connections", Integer.toString(maxConnections));
    }
}
