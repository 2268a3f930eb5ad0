package io.sluice.spring.boot;

import reactor.core.publisher.Flux;

/**
 * Wraps each transfer of {@link SluiceTransfers} and {@link SluiceFileParts}: the hook through
 * which the auto-configuration records meters and observations, and through which an application
 * may add its own. Every {@code TransferObserver} bean is applied, in {@code @Order}, the first
 * outermost.
 *
 * <p><b>Threading:</b> {@link #observe} is called once per subscription, on the subscribing
 * thread; the operators it adds run on the transfer's threads.
 *
 * <p><b>Backpressure:</b> an observer must pass signals and requests through unchanged.
 *
 * <p><b>Resources:</b> a read's buffers pass through the observer to the consumer, who releases
 * them: an observer must neither release nor keep them.
 *
 * <p><b>Errors:</b> an exception thrown by an observer's operators fails the transfer.
 */
@FunctionalInterface
public interface TransferObserver {

    /**
     * Wraps one subscription's transfer.
     *
     * @param transfer what the transfer is, with its counters (final once it ends)
     * @param signals the transfer: a write's or copy's byte count, a read's buffers, a store's parts
     * @param <T> the items of the transfer
     * @return {@code signals} with the observer's operators
     */
    <T> Flux<T> observe(Transfer transfer, Flux<T> signals);
}
