package io.sluice.lab.spring;

import io.sluice.lab.Csv;
import io.sluice.lab.Load;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One recorded sample of {@link LoadHarness}: one row of its {@code uploads.csv} or {@code downloads.csv}.
 *
 * @param rounds how many times in a row each client moved the file in this sample
 */
record Sample(String commit, String jdk, String transfer, long sizeBytes, int clients, int sample, double seconds,
              double mibPerSecond, double serverCpuSeconds, long heapAfterGcBytes, long peakRssBytes, Load load,
              int rounds) {

    /** The columns of a run whose clients each moved the file once per sample: no {@code rounds} column. */
    static final String HEADER_ONE_ROUND = "commit,jdk,transfer,size_bytes,clients,sample,seconds,mib_per_s,"
            + "server_cpu_s,server_heap_after_gc_bytes,server_peak_rss_bytes,load1_before,load1_after,others_busy";

    /** The columns, in {@link LoadHarness}'s order. */
    static final String HEADER = HEADER_ONE_ROUND + ",rounds";

    /**
     * The samples of one of the harness's CSV files.
     *
     * @throws IOException if the file cannot be read, its header is neither {@link #HEADER} nor
     *     {@link #HEADER_ONE_ROUND}, or a row does not have its columns
     */
    static List<Sample> read(Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !(lines.get(0).equals(HEADER) || lines.get(0).equals(HEADER_ONE_ROUND))) {
            throw new IOException(csv + ": expected the header " + HEADER);
        }
        boolean withRounds = lines.get(0).equals(HEADER);
        List<Sample> samples = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            List<String> fields = Csv.fields(lines.get(i));
            try {
                samples.add(new Sample(fields.get(0), fields.get(1), fields.get(2), Long.parseLong(fields.get(3)), Integer.parseInt(fields.get(4)),
                        Integer.parseInt(fields.get(5)), Double.parseDouble(fields.get(6)), Double.parseDouble(fields.get(7)),
                        Double.parseDouble(fields.get(8)), Long.parseLong(fields.get(9)), Long.parseLong(fields.get(10)),
                        new Load(Double.parseDouble(fields.get(11)), Double.parseDouble(fields.get(12)),
                                Double.parseDouble(fields.get(13))),
                        withRounds ? Integer.parseInt(fields.get(14)) : 1));
            } catch (RuntimeException e) {
                throw new IOException(csv + ":" + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        return samples;
    }

    /** The server's CPU seconds per GiB this sample moved (all clients' bytes, every round). */
    double cpuSecondsPerGiB() {
        return serverCpuSeconds / (sizeBytes * (double) clients * rounds / (1L << 30));
    }

    /** Whether the machine's load during this sample is unknown (no reading). */
    boolean loadUnknown() {
        return Double.isNaN(load.othersBusy());
    }
}
