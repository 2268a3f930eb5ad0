/**
 * The write path: {@link io.sluice.internal.write.ChannelWriteSubscriber} (one per write) takes an
 * upstream's buffers and writes them to a {@link io.sluice.internal.write.WriteSink} (a channel, a
 * file, an atomically replaced file, a stream); {@link io.sluice.internal.write.Writes} starts a
 * write, {@link io.sluice.internal.write.FileCopy} copies a file with {@code transferTo}.
 *
 * <h2>Threading</h2>
 * A write has two sides. The receiving side is the upstream's signals ({@code onSubscribe},
 * {@code onNext}, {@code onError}, {@code onComplete}: serial, §1.3, on whatever thread the
 * upstream uses); they only record and enqueue, then signal the drain (W2). Everything else, every
 * sink call and every call on the upstream subscription (§2.7) included, runs on the write's
 * {@link io.sluice.internal.SerialDrain}: one pass at a time, each pass happening-after the
 * previous one. The exceptions are an outside completion of the stage ({@code cancel},
 * {@code complete}, timeouts: any thread), which sets a flag and calls
 * {@link io.sluice.internal.write.WriteSink#abort()}, and a sync write's end, which may move to a
 * finisher thread (W9), which takes the drain's role with them. Field comments name these roles
 * as {@code io.sluice.internal}'s package-info defines them ({@code // drain-confined},
 * {@code // onNext -> drain}, ...), the receiving side by its method.
 *
 * <h2>The writer's invariants</h2>
 * {@link io.sluice.internal.write.ChannelWriteSubscriber} keeps these; tests and the enforcing
 * branches name them.
 * <ul>
 *   <li>W1 (§2.7): every {@code request} and {@code cancel} on the upstream subscription is made
 *       from the drain, so never concurrently, and even the first request is issued there.</li>
 *   <li>W2: {@code onNext} never blocks and never does I/O: it enqueues and signals the drain.</li>
 *   <li>W3 (window): for a bounded controller, queued plus outstanding items only grow by a
 *       request, and the controller requests only while the result stays within its window.</li>
 *   <li>W4 (bytes): demand is forwarded only while {@code queuedBytes + (outstanding + n) * L <=
 *       maxQueuedBytes}, where {@code queuedBytes} counts every byte received and not yet in the
 *       target (bytes a sink took into its staging buffer included, until it writes them, though
 *       {@link io.sluice.demand.DemandState#queuedBytes()} shows only the queue's) and
 *       {@code L} is the larger of the largest item seen and the declared
 *       {@link io.sluice.WriteOptions#maxItemBytes()}; one item when nothing is queued, staged or outstanding (so
 *       before the first item one item is requested, unless a declared size lets more in). Every
 *       strategy but {@code Demand.unbounded()} is capped. {@link WriteLedger} keeps the counts and
 *       applies this rule and states the bound on held bytes it gives for any item sizes.</li>
 *   <li>W5 (§1.1): an item beyond the requested total fails the write naming §1.1; it is dropped,
 *       never queued.</li>
 *   <li>W6: the stage completes exactly once; every path closes the sink exactly once and cancels a
 *       live upstream. The writer's own completion comes after the sink is closed (and forced, with
 *       sync); an outside completion comes after {@link io.sluice.internal.write.WriteSink#abort()} returned, which closes
 *       every sink but a user's non-interruptible channel with a write in flight.</li>
 *   <li>W7: one pass writes at most {@link WriteLedger#YIELD_AFTER_BYTES} and handles at most
 *       {@link WriteLedger#YIELD_AFTER_ITEMS} items (empty ones too) before yielding the executor, so
 *       concurrent writes share it fairly.</li>
 *   <li>W8: {@code onNext} publishes an item's bytes ({@code queuedBytes}) before its count
 *       ({@code received}), and the drain reads the count before the bytes, so the drain never sees
 *       an item neither outstanding nor queued. An item a synchronous upstream emits inside our own
 *       {@code request(n)} (so on the drain's thread, while the drain runs) skips the concurrent
 *       queue and the signal: it goes to drain-confined storage, and only while the queue is
 *       empty, so items are written in the order they arrived. {@code requestingThread} is
 *       volatile and only ever holds null or the drain's current thread, so it equals the caller's
 *       thread exactly when the caller is the drain inside {@code request(n)}. If items arrived
 *       during that call, the controller is asked once more.</li>
 *   <li>W9: the end of a write (the final force, the commit, the close) may run on a separate
 *       {@code finisher} executor: a sync write on the small shared file pool then waits for its
 *       {@code fsync} on the blocking pool, so a slow device cannot hold the file pool's threads
 *       and starve every other file operation. The write is {@code terminated} before the
 *       hand-off, so no later pass touches it; the finisher owns the sink and the stage from
 *       then on (the hand-off through {@link java.util.concurrent.Executor#execute} publishes the drain's state).</li>
 *   <li>W10: a chunk lent by a {@code ChunkPool}, or a buffer its owner lent with {@code ChunkPool.lend}
 *       ({@link io.sluice.internal.Loans}), is written from as it is, not from a duplicate, and given
 *       back once the sink is done with it: after the gathering write that took it returned, or,
 *       for a heap chunk copied into a staging buffer, after the flush that ends its batch (a
 *       write that has taken a lent chunk keeps nothing staged past a batch), so a chunk of a
 *       write that goes on is given back with its bytes in the target; or when the write stops or
 *       fails, written or not (queued at a cancel or failure, refused by W5, late after the end,
 *       its write call or flush failed). Every sink reads a buffer only inside its own call.</li>
 *   <li>W11: an upstream's {@code onError} ends the write as {@code onComplete} would, but failed:
 *       every item received before it is written first, then the sink is closed (not forced, not
 *       committed) and the stage fails with that very error. If the sink fails once that error has
 *       arrived (to open the target, or to write or flush what came before it), the stage still
 *       fails with the upstream's error, the sink's failure suppressed in it. What reaches the file
 *       is therefore exactly what the upstream sent before failing, whatever the timing: the target
 *       is opened (created, truncated) as for any write, even when the error came before any item,
 *       as Spring's {@code DataBufferUtils.write} opens it on subscription. Failures of the write's
 *       own making (a refused item, a listener or controller that throws, a §2.13 violation) and an
 *       outside completion stop at once.</li>
 *   <li>W12: the bytes a listener's snapshot (and the write's recording) counts as written are in
 *       the target when it is told: staged bytes are left out until written, and a pass that ends
 *       (the write waits or completes) writes what it staged before the listener hears of it, so
 *       the last snapshot of a completed write counts every byte, and a process killed after a
 *       snapshot leaves at least the bytes it counted in the file.</li>
 * </ul>
 */
package io.sluice.internal.write;
