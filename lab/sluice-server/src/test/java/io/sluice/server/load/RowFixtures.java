package io.sluice.server.load;

import io.sluice.lab.Load;
import io.sluice.server.Lane;

/** Rows with chosen figures for chart and gate tests (everything else plausible and fixed). */
final class RowFixtures {

    private RowFixtures() {}

    static Row closedLoop(String scenario, int connections, Lane lane, double requestsPerSecond, double p99Millis) {
        return new Row(
                scenario,
                connections + " conn",
                lane,
                requestsPerSecond,
                requestsPerSecond / 64,
                2,
                p99Millis,
                p99Millis * 2,
                0,
                0,
                130,
                180,
                0.3,
                20,
                1.5,
                0.2,
                30,
                4,
                12.5,
                300,
                Load.UNKNOWN,
                null,
                "");
    }

    static Row fastGet(Lane lane, double p99Millis, double idleRss, double peakRss, Drain drain, String note) {
        return new Row(
                "B",
                "fast GET",
                lane,
                40,
                0.6,
                1.5,
                p99Millis,
                p99Millis,
                0,
                0,
                idleRss,
                peakRss,
                0.3,
                20,
                0.5,
                190,
                30,
                1.3,
                33,
                150,
                Load.UNKNOWN,
                drain,
                note);
    }

    static Row put(Lane lane, Drain drain) {
        return new Row(
                "B",
                "1 MiB PUT",
                lane,
                2,
                0,
                9,
                20,
                20,
                0,
                0,
                130,
                150,
                0.3,
                20,
                0.5,
                190,
                30,
                1.3,
                33,
                150,
                Load.UNKNOWN,
                drain,
                "");
    }
}
