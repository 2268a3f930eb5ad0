package io.sluice.server.ws.load;

import io.sluice.lab.Csv;
import io.sluice.lab.Load;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One lane's figures from one run: what the clients got, what the server cost, and whether every
 * subscription was released after the clients closed.
 *
 * @param lane the lane's flag, or {@link #ALL_FAST}
 * @param gaps sequence numbers skipped, over all clients
 * @param duplicates sequence numbers seen again or gone back, over all clients
 * @param clientError the first client error, empty when none
 * @param fastP50Micros fast clients' latency, send to receipt (also p99, p999)
 * @param idleRssBytes the server's RSS before the clients connected
 * @param heapAfterGcBytes the server's heap used after a full collection at the end of the load
 * @param queuedBytesAtEnd bytes the server held for its clients at the end of the load
 * @param peakQueuedBytes the most bytes it held in a sample, -1 if never read
 * @param peakSendQueueBytes the most bytes in the kernel send queues of its connections in a sample, -1 if unknown
 * @param othersBusy the share of the cores other work kept busy during the load ({@link Load}), NaN if unknown
 * @param serverDeath why the server died during the load ("OutOfMemoryError", ...), empty if it did not
 * @param subscribersAtEnd subscribers live at the end of the load, before the clients closed; -1 if not recorded
 * @param repeat which repeat of the run's lane sequence this row is from, from 1
 * @param cost {@link ProcessCost#NOT_RECORDED} in a folder written before those columns
 */
record LaneResult(
        String lane,
        int clients,
        int slowClients,
        double seconds,
        long fastMessages,
        long slowMessages,
        long gaps,
        long duplicates,
        String clientError,
        long fastP50Micros,
        long fastP99Micros,
        long fastP999Micros,
        long idleRssBytes,
        long peakRssBytes,
        long heapAfterGcBytes,
        long queuedBytesAtEnd,
        long peakQueuedBytes,
        long peakSendQueueBytes,
        double serverCpuSeconds,
        long released,
        double othersBusy,
        String commit,
        String jdk,
        String serverDeath,
        long subscribersAtEnd,
        int repeat,
        ProcessCost cost) {

    /** The file a run's rows go to. */
    static final String FILE = "websocket.csv";
    /** The label of the reference run: the bounded lane with every client fast. */
    static final String ALL_FAST = "bounded-all-fast";

    static final String CSV_HEADER = "lane,clients,slow_clients,seconds,messages,fast_messages,slow_messages,"
            + "messages_per_s,fast_messages_per_s,gaps,duplicates,fast_p50_us,fast_p99_us,fast_p999_us,"
            + "idle_rss_bytes,peak_rss_bytes,heap_after_gc_bytes,queued_bytes_at_end,peak_queued_bytes,"
            + "peak_send_queue_bytes,server_cpu_s,cpu_s_per_million,released,others_busy,commit,jdk,server_death,"
            + "client_error,subscribers_at_end,repeat," + ProcessCost.CSV_HEADER;
    /** The header of a folder written before the {@link ProcessCost} columns. */
    static final String BEFORE_COST_CSV_HEADER =
            CSV_HEADER.substring(0, CSV_HEADER.indexOf("," + ProcessCost.CSV_HEADER));
    /** The header of a folder written before the subscriber and repeat columns: repeat 1, not recorded. */
    static final String LEGACY_CSV_HEADER = CSV_HEADER.substring(0, CSV_HEADER.indexOf(",subscribers_at_end"));

    /** Whether {@code header} is one this class reads, of now or of an older folder. */
    static boolean knownHeader(String header) {
        return header.equals(CSV_HEADER) || header.equals(BEFORE_COST_CSV_HEADER) || header.equals(LEGACY_CSV_HEADER);
    }

    long messages() {
        return fastMessages + slowMessages;
    }

    double messagesPerSecond() {
        return messages() / seconds;
    }

    double fastMessagesPerSecond() {
        return fastMessages / seconds;
    }

    /** Server CPU seconds per million messages delivered. */
    double cpuSecondsPerMillion() {
        return messages() == 0 ? Double.NaN : serverCpuSeconds / (messages() / 1e6);
    }

    String csvRow() {
        return Stream.of(
                        lane,
                        clients,
                        slowClients,
                        fmt(seconds),
                        messages(),
                        fastMessages,
                        slowMessages,
                        fmt(messagesPerSecond()),
                        fmt(fastMessagesPerSecond()),
                        gaps,
                        duplicates,
                        fastP50Micros,
                        fastP99Micros,
                        fastP999Micros,
                        idleRssBytes,
                        peakRssBytes,
                        heapAfterGcBytes,
                        queuedBytesAtEnd,
                        peakQueuedBytes,
                        peakSendQueueBytes,
                        fmt(serverCpuSeconds),
                        fmt(cpuSecondsPerMillion()),
                        released,
                        fmt(othersBusy),
                        Csv.quote(commit),
                        Csv.quote(jdk),
                        Csv.quote(serverDeath),
                        Csv.quote(clientError),
                        subscribersAtEnd,
                        repeat,
                        cost.csvFields())
                .map(String::valueOf)
                .collect(Collectors.joining(","));
    }

    /** A row as {@link #csvRow()} or an older folder wrote it; derived columns are computed again, not read. */
    static LaneResult parse(String line) {
        List<String> fields = Csv.fields(line);
        int columns = CSV_HEADER.split(",").length;
        int beforeCostColumns = BEFORE_COST_CSV_HEADER.split(",").length;
        int legacyColumns = LEGACY_CSV_HEADER.split(",").length;
        if (fields.size() != columns && fields.size() != beforeCostColumns && fields.size() != legacyColumns) {
            throw new IllegalArgumentException("a websocket.csv row has " + columns + " fields (" + beforeCostColumns
                    + " or " + legacyColumns + " in older folders): " + line);
        }
        boolean legacy = fields.size() == legacyColumns;
        return new LaneResult(
                fields.get(0),
                Integer.parseInt(fields.get(1)),
                Integer.parseInt(fields.get(2)),
                Double.parseDouble(fields.get(3)),
                Long.parseLong(fields.get(5)),
                Long.parseLong(fields.get(6)),
                Long.parseLong(fields.get(9)),
                Long.parseLong(fields.get(10)),
                fields.get(27),
                Long.parseLong(fields.get(11)),
                Long.parseLong(fields.get(12)),
                Long.parseLong(fields.get(13)),
                Long.parseLong(fields.get(14)),
                Long.parseLong(fields.get(15)),
                Long.parseLong(fields.get(16)),
                Long.parseLong(fields.get(17)),
                Long.parseLong(fields.get(18)),
                Long.parseLong(fields.get(19)),
                Double.parseDouble(fields.get(20)),
                Long.parseLong(fields.get(22)),
                Double.parseDouble(fields.get(23)),
                fields.get(24),
                fields.get(25),
                fields.get(26),
                legacy ? -1 : Long.parseLong(fields.get(28)),
                legacy ? 1 : Integer.parseInt(fields.get(29)),
                fields.size() == columns ? ProcessCost.parse(fields, beforeCostColumns) : ProcessCost.NOT_RECORDED);
    }

    boolean allFast() {
        return lane.equals(ALL_FAST);
    }

    /** The line the harness prints for this lane. */
    String summary() {
        return String.format(
                Locale.ROOT,
                "lane %-9s %,12.0f msg/s (fast %,12.0f)  fast p50/p99/p999 %.2f/%.2f/%.2f ms"
                        + "  heap after GC %.1f MiB  RSS idle %.1f peak %.1f MiB  queued %.1f MiB"
                        + "  CPU %.2f s per million  order faults %d  released %d/%d%s",
                lane,
                messagesPerSecond(),
                fastMessagesPerSecond(),
                fastP50Micros / 1e3,
                fastP99Micros / 1e3,
                fastP999Micros / 1e3,
                mib(heapAfterGcBytes),
                mib(idleRssBytes),
                mib(peakRssBytes),
                mib(queuedBytesAtEnd),
                cpuSecondsPerMillion(),
                gaps + duplicates,
                released,
                clients,
                serverDeath.isEmpty() ? "" : "  server died: " + serverDeath);
    }

    static double mib(long bytes) {
        return bytes < 0 ? Double.NaN : bytes / (1024.0 * 1024);
    }

    static String fmt(double value) {
        return String.format(Locale.ROOT, "%.3f", value);
    }
}
