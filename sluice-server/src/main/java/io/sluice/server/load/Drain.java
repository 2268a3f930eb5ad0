package io.sluice.server.load;

/**
 * What the server's memory did after scenario B's load: every client closed, then
 * {@link #DRAIN_SECONDS} of nothing, RSS sampled every 250 ms; then a forced full GC.
 *
 * @param rssAtLoadEndMiB RSS just before the clients closed
 * @param rssMaxOverDrainMiB the highest RSS sampled during the drain
 * @param rssAfterDrainMiB RSS at the end of the drain
 * @param liveSetIdleMiB heap after a forced full GC of the fresh server, before its warm-up (NaN if not measured)
 * @param liveSetAfterDrainMiB heap after a forced full GC after the drain (NaN if not measured)
 * @param note why a live set is missing, or empty
 */
record Drain(double rssAtLoadEndMiB, double rssMaxOverDrainMiB, double rssAfterDrainMiB, double liveSetIdleMiB,
             double liveSetAfterDrainMiB, String note) {

    static final int DRAIN_SECONDS = 5;

    static String header() {
        return "| lane | idle RSS MiB | peak RSS MiB | RSS at load end MiB | max RSS over " + DRAIN_SECONDS
                + " s drain MiB | RSS after drain MiB | live set idle MiB | live set after drain MiB | note |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---|";
    }

    String markdown(Row row) {
        return Row.cells(row.lane().flag(), Row.number(row.idleRssMiB(), 0), Row.number(row.peakRssMiB(), 0),
                Row.number(rssAtLoadEndMiB, 0), Row.number(rssMaxOverDrainMiB, 0), Row.number(rssAfterDrainMiB, 0),
                Row.number(liveSetIdleMiB, 0), Row.number(liveSetAfterDrainMiB, 0), note);
    }
}
