package io.sluice.lab;

import java.util.ArrayList;
import java.util.List;

/**
 * The order in which a load harness runs its samples. Within a cell (size, clients) the
 * transfers take turns: every transfer's warm-up samples, then sample 0 of every transfer, then
 * sample 1 of every transfer, and so on, so that a drift of the machine over the cell (the page
 * cache filling, write-back, another process) falls on every transfer alike instead of on whichever
 * ran last. Before the first recorded cell, one warm-up pass runs every transfer once, unrecorded,
 * at the smallest and the largest size measured, so that the first cells do not run on a young
 * server.
 */
public final class SampleOrder {

    /** One sample to run: a transfer and the sample's index, negative for an unrecorded warm-up. */
    public record Step<T>(T transfer, int sample) {

        public boolean recorded() {
            return sample >= 0;
        }
    }

    private SampleOrder() {}

    /** A cell's samples: {@code warmup} unrecorded, then {@code samples} recorded, round by round. */
    public static <T> List<Step<T>> cell(List<T> transfers, int warmup, int samples) {
        List<Step<T>> steps = new ArrayList<>();
        for (int sample = -warmup; sample < samples; sample++) {
            for (T transfer : transfers) {
                steps.add(new Step<>(transfer, sample));
            }
        }
        return steps;
    }

    /** The warm-up pass's steps in one cell: every transfer once, unrecorded. */
    public static <T> List<Step<T>> warmUpPass(List<T> transfers) {
        return cell(transfers, 1, 0);
    }

    /**
     * How many times in a row each of {@code clients} moves a file of {@code size} in one sample so
     * that together they move at least {@code sampleBytes}: once for a file that large, and once for
     * an empty file, which no number of rounds makes move bytes. A sample of a small file then lasts
     * long enough to be timed and judged quiet, and its figure is a rate over many transfers rather
     * than one transfer's time.
     */
    public static int rounds(long sampleBytes, long size, int clients) {
        if (size == 0) {
            return 1;
        }
        long perSample = size * clients;
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, (sampleBytes + perSample - 1) / perSample));
    }

    /** The sizes the warm-up pass runs at: the smallest and the largest of {@code sizes}, smallest first. */
    public static List<Long> warmUpSizes(List<Long> sizes) {
        long smallest = sizes.stream().mapToLong(Long::longValue).min().orElseThrow();
        long largest = sizes.stream().mapToLong(Long::longValue).max().orElseThrow();
        return smallest == largest ? List.of(smallest) : List.of(smallest, largest);
    }
}
