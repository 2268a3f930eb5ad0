package io.sluice.lab.s3;

import io.sluice.lab.Csv;
import io.sluice.lab.Load;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * One recorded sample of {@link S3LoadHarness}: one row of its {@code samples.csv}, in which every
 * client moved its object {@code rounds} times in a row (a run made before rounds has no such
 * column: once). {@code outcome}
 * is {@code ok}, or why the sample failed (such as {@code OutOfMemoryError}); a failed sample's
 * figures are NaN or -1. Memory figures are the client JVM's ({@link ClientResult}); CPU seconds are
 * the client JVM's and the server JVM's over the recorded transfers.
 */
record S3Sample(
        String commit,
        String jdk,
        String transfer,
        long sizeBytes,
        int clients,
        int sample,
        String outcome,
        double seconds,
        double mibPerSecond,
        double clientCpuSeconds,
        double serverCpuSeconds,
        long peakHeapBytes,
        long peakLiveHeapBytes,
        long idleHeapBytes,
        long peakDirectBytes,
        long peakDirectJdkBytes,
        long peakDirectNettyBytes,
        long boundBytes,
        Load load,
        int rounds) {

    /** The columns of a run whose clients moved their objects once per sample: no {@code rounds} column. */
    static final String HEADER_ONE_ROUND = "commit,jdk,transfer,size_bytes,clients,sample,outcome,seconds,mib_per_s,"
            + "client_cpu_s,server_cpu_s,peak_heap_bytes,peak_live_heap_bytes,idle_heap_bytes,peak_direct_bytes,"
            + "peak_direct_jdk_bytes,peak_direct_netty_bytes,bound_bytes,load1_before,load1_after,others_busy";

    static final String HEADER = HEADER_ONE_ROUND + ",rounds";

    static final String OK = "ok";

    /** The samples of a {@code samples.csv}; an IOException names the file and line of a malformed row. */
    static List<S3Sample> read(Path csv) throws IOException {
        return Csv.read(csv, List.of(HEADER, HEADER_ONE_ROUND), (header, fields) -> {
            int expected = header.equals(HEADER) ? 22 : 21;
            if (fields.size() != expected) {
                throw new IllegalArgumentException("expected " + expected + " fields, found " + fields.size());
            }
            return new S3Sample(
                    fields.get(0),
                    fields.get(1),
                    fields.get(2),
                    Long.parseLong(fields.get(3)),
                    Integer.parseInt(fields.get(4)),
                    Integer.parseInt(fields.get(5)),
                    fields.get(6),
                    Double.parseDouble(fields.get(7)),
                    Double.parseDouble(fields.get(8)),
                    Double.parseDouble(fields.get(9)),
                    Double.parseDouble(fields.get(10)),
                    Long.parseLong(fields.get(11)),
                    Long.parseLong(fields.get(12)),
                    Long.parseLong(fields.get(13)),
                    Long.parseLong(fields.get(14)),
                    Long.parseLong(fields.get(15)),
                    Long.parseLong(fields.get(16)),
                    Long.parseLong(fields.get(17)),
                    new Load(
                            Double.parseDouble(fields.get(18)),
                            Double.parseDouble(fields.get(19)),
                            Double.parseDouble(fields.get(20))),
                    expected == 22 ? Integer.parseInt(fields.get(21)) : 1);
        });
    }

    /** This sample as a row of {@link #HEADER}. */
    String row() {
        return String.format(
                Locale.ROOT,
                "%s,%s,%s,%d,%d,%d,%s,%.6f,%.3f,%.3f,%.3f,%d,%d,%d,%d,%d,%d,%d,%.2f,%.2f,%.3f,%d",
                commit,
                jdk,
                transfer,
                sizeBytes,
                clients,
                sample,
                Csv.quote(outcome),
                seconds,
                mibPerSecond,
                clientCpuSeconds,
                serverCpuSeconds,
                peakHeapBytes,
                peakLiveHeapBytes,
                idleHeapBytes,
                peakDirectBytes,
                peakDirectJdkBytes,
                peakDirectNettyBytes,
                boundBytes,
                load.load1Before(),
                load.load1After(),
                load.othersBusy(),
                rounds);
    }

    boolean ok() {
        return outcome.equals(OK);
    }

    /** The GiB this sample moved (all clients' bytes, every round). */
    double gib() {
        return sizeBytes * (double) clients * rounds / (1L << 30);
    }

    double clientCpuSecondsPerGiB() {
        return clientCpuSeconds / gib();
    }

    double serverCpuSecondsPerGiB() {
        return serverCpuSeconds / gib();
    }

    /**
     * The live heap the recorded transfers added to the idle JVM: the peak heap after a collection
     * during them less the heap after a full collection before them. If no collection ran during
     * them, the peak heap in use less the idle heap: everything allocated counts, garbage included,
     * so the figure can only be too high.
     */
    long attributableHeapBytes() {
        return Math.max(0, (peakLiveHeapBytes < 0 ? peakHeapBytes : peakLiveHeapBytes) - idleHeapBytes);
    }

    boolean loadUnknown() {
        return Double.isNaN(load.othersBusy());
    }
}
