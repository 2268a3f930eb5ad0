package io.sluice.lab.spring;

import java.util.ArrayList;
import java.util.List;

/**
 * The order in which {@link LoadHarness} runs its samples. Within a cell (size, clients) the
 * transfers take turns: every transfer's warm-up samples, then sample 0 of every transfer, then
 * sample 1 of every transfer, and so on, so that a drift of the machine over the cell (the page
 * cache filling, write-back, another process) falls on every transfer alike instead of on whichever
 * ran last. Before the first recorded cell, one warm-up pass runs every transfer once, unrecorded,
 * at the smallest and the largest size measured, so that the first cells do not run on a young
 * application (see {@link SpringGates}, heap flat).
 */
final class Schedule {

    /** One sample to run: a transfer and the sample's index, negative for an unrecorded warm-up. */
    record Step(Transfer transfer, int sample) {

        boolean recorded() {
            return sample >= 0;
        }
    }

    private Schedule() {
    }

    /** A cell's samples: {@code warmup} unrecorded, then {@code samples} recorded, round by round. */
    static List<Step> cell(List<Transfer> transfers, int warmup, int samples) {
        List<Step> steps = new ArrayList<>();
        for (int sample = -warmup; sample < samples; sample++) {
            for (Transfer transfer : transfers) {
                steps.add(new Step(transfer, sample));
            }
        }
        return steps;
    }

    /** The warm-up pass's steps in one cell: every transfer once, unrecorded. */
    static List<Step> warmUpPass(List<Transfer> transfers) {
        return cell(transfers, 1, 0);
    }

    /** The sizes the warm-up pass runs at: the smallest and the largest of {@code sizes}, smallest first. */
    static List<Long> warmUpSizes(List<Long> sizes) {
        long smallest = sizes.stream().mapToLong(Long::longValue).min().orElseThrow();
        long largest = sizes.stream().mapToLong(Long::longValue).max().orElseThrow();
        return smallest == largest ? List.of(smallest) : List.of(smallest, largest);
    }
}
