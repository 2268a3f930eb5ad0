package io.sluice.server.ws.load;

import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;

/**
 * One point of a lane's time series, taken every {@link FanOutLoadMain#SAMPLE_MILLIS} during its
 * load: what the clients had received so far and what the server held then (each byte figure -1
 * when not read; the heap with no collection forced).
 *
 * @param seconds seconds since the load began
 * @param messages messages every client had received so far
 */
record LaneSample(
        String lane,
        double seconds,
        long messages,
        long fastMessages,
        long rssBytes,
        long heapUsedBytes,
        long queuedBytes,
        long sendQueueBytes,
        int repeat) {

    /** The file a run's samples go to, next to {@code websocket.csv}. */
    static final String FILE = "websocket-series.csv";

    static final String CSV_HEADER =
            "lane,seconds,messages,fast_messages,rss_bytes,heap_used_bytes,queued_bytes," + "send_queue_bytes,repeat";
    private static final int LEGACY_FIELDS = 8; // a folder written before the repeat column: repeat 1

    String csvRow() {
        return String.join(
                ",",
                lane,
                String.format(Locale.ROOT, "%.3f", seconds),
                Long.toString(messages),
                Long.toString(fastMessages),
                Long.toString(rssBytes),
                Long.toString(heapUsedBytes),
                Long.toString(queuedBytes),
                Long.toString(sendQueueBytes),
                Integer.toString(repeat));
    }

    static LaneSample parse(String line) {
        List<String> fields = List.of(line.split(",", -1));
        if (fields.size() != LEGACY_FIELDS + 1 && fields.size() != LEGACY_FIELDS) {
            throw new IllegalArgumentException("a series line has " + (LEGACY_FIELDS + 1) + " fields (" + LEGACY_FIELDS
                    + " in older folders): " + line);
        }
        return new LaneSample(
                fields.get(0),
                Double.parseDouble(fields.get(1)),
                Long.parseLong(fields.get(2)),
                Long.parseLong(fields.get(3)),
                Long.parseLong(fields.get(4)),
                Long.parseLong(fields.get(5)),
                Long.parseLong(fields.get(6)),
                Long.parseLong(fields.get(7)),
                fields.size() == LEGACY_FIELDS ? 1 : Integer.parseInt(fields.get(8)));
    }

    /** The samples of {@code lane} in {@code repeat}. */
    static List<LaneSample> series(List<LaneSample> samples, String lane, int repeat) {
        return samples.stream()
                .filter(sample -> sample.lane().equals(lane) && sample.repeat() == repeat)
                .toList();
    }

    /** The highest of {@code figure} over {@code series}, -1 when it has none. */
    static long peak(List<LaneSample> series, ToLongFunction<LaneSample> figure) {
        return series.stream().mapToLong(figure).max().orElse(-1);
    }

    /** Messages per second delivered between {@code previous} and this sample. */
    double messagesPerSecondSince(LaneSample previous) {
        double seconds = this.seconds - previous.seconds;
        return seconds <= 0 ? Double.NaN : (messages - previous.messages) / seconds;
    }
}
