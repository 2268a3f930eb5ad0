package io.sluice.bench.adaptive;

/** Fixed {@link ModelCosts} for the model's unit tests; a published model figure uses {@link Calibration}'s. */
final class TestCosts {

    /** Figures of the order a 2-core machine shows. */
    static final ModelCosts TYPICAL = new ModelCosts(25_000, 25_000, 3_000, 0.35, 500, 3_000, 50_000);
    /** No overhead at all: the ideal pipeline, for tests of the rules alone. */
    static final ModelCosts FREE = new ModelCosts(0, 0, 0, 0, 0, 0, 0);

    private TestCosts() {}
}
