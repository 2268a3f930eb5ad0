/**
 * The public API: {@link io.sluice.ReactiveFile} for files, {@link io.sluice.ByteChannels} for any
 * byte channel, {@link io.sluice.ByteStreams} for {@code InputStream}/{@code OutputStream}, their
 * options, and the executors they run on.
 *
 * <h2>Threading</h2>
 * Entry points may be called from any thread and never block: they subscribe upstream on the
 * calling thread and run all I/O on an executor ({@link io.sluice.IoExecutors}). Publishers signal
 * {@code onSubscribe} on the subscribing thread and everything else on their executor, serially.
 * Writers call {@code request}/{@code cancel} on their upstream only from their drain (§2.7).
 *
 * <h2>Backpressure</h2>
 * Reads read one chunk per item requested. Writes request with a
 * {@link io.sluice.demand.DemandStrategy} (adaptive by default) and hold at most its window in
 * items and, in bytes, the bound {@link io.sluice.WriteOptions} states.
 */
package io.sluice;
