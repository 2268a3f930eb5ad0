package io.sluice.spring.boot;

import io.micrometer.observation.Observation;

import java.util.Objects;

/**
 * The {@link Observation.Context} of one transfer: the {@link Transfer} and how it ended.
 *
 * <p><b>Threading:</b> written on the transfer's threads, read by the observation's handlers at
 * its start and stop.
 */
public class SluiceTransferContext extends Observation.Context {

    private final Transfer transfer;
    private volatile String outcome = "unknown"; // completed, failed or cancelled once ended

    /**
     * A context for {@code transfer}.
     *
     * @param transfer the transfer observed
     * @throws NullPointerException if {@code transfer} is {@code null}
     */
    public SluiceTransferContext(Transfer transfer) {
        this.transfer = Objects.requireNonNull(transfer, "transfer");
    }

    /**
     * The transfer observed.
     *
     * @return what it is and its counters
     */
    public Transfer getTransfer() {
        return transfer;
    }

    /**
     * How the transfer ended.
     *
     * @return {@code completed}, {@code failed} or {@code cancelled}; {@code unknown} while it runs
     */
    public String getOutcome() {
        return outcome;
    }

    /**
     * Sets how the transfer ended.
     *
     * @param outcome {@code completed}, {@code failed} or {@code cancelled}
     */
    public void setOutcome(String outcome) {
        this.outcome = Objects.requireNonNull(outcome, "outcome");
    }
}
