package io.sluice.server.load;

/**
 * What the server's memory did after scenario B's load: every client closed, then {@link #DRAIN_SECONDS} of
 * RSS samples, then a forced full GC. The live sets are heap after a forced full GC (idle: before the warm-up),
 * NaN if not measured; {@code note} says why.
 */
record Drain(
        double rssAtLoadEndMiB,
        double rssMaxOverDrainMiB,
        double rssAfterDrainMiB,
        double liveSetIdleMiB,
        double liveSetAfterDrainMiB,
        String note) {

    static final int DRAIN_SECONDS = 5;

    static String header() {
        return "| lane | idle RSS MiB | peak RSS MiB | RSS at load end MiB | max RSS over " + DRAIN_SECONDS
                + " s drain MiB | RSS after drain MiB | live set idle MiB | live set after drain MiB | note |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---|";
    }

    String markdown(Row row) {
        return Row.cells(
                row.lane().flag(),
                Row.number(row.idleRssMiB(), 0),
                Row.number(row.peakRssMiB(), 0),
                Row.number(rssAtLoadEndMiB, 0),
                Row.number(rssMaxOverDrainMiB, 0),
                Row.number(rssAfterDrainMiB, 0),
                Row.number(liveSetIdleMiB, 0),
                Row.number(liveSetAfterDrainMiB, 0),
                note);
    }
}
