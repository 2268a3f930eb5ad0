/**
 * Objects in S3-compatible storage as Reactive Streams and {@link java.util.concurrent.Flow}
 * sources and sinks: {@link io.sluice.s3.ReactiveObject} uploads a publisher of unknown length
 * with memory bounded in bytes, reads an object or a range as a {@link io.sluice.BytePublisher}, and
 * downloads into a file through the core's writer.
 *
 * <p><b>Threading:</b> nothing here blocks a thread it does not own. Upstream signals
 * ({@code onNext} of the publisher being uploaded) and the SDK's completions (on its event-loop and
 * response threads) are serialized by one drain per operation, which runs on whichever of those
 * threads signals first; the drain only copies bytes and starts asynchronous SDK calls.
 */
package io.sluice.s3;
