/**
 * What the read path ({@code io.sluice.internal.read}) and the write path
 * ({@code io.sluice.internal.write}) both use: the drain ({@link io.sluice.internal.SerialDrain}), an
 * operation's stage ({@link io.sluice.internal.OperationFuture}) and abort gate
 * ({@link io.sluice.internal.AbortGate}), waiting on a stalled channel
 * ({@link io.sluice.internal.Readiness}), lent chunks ({@link io.sluice.internal.ChunkArena},
 * {@link io.sluice.internal.Loans}), the shared pools that replace threads stuck in a call
 * ({@link io.sluice.internal.CompensatingPool}), the library's own timer
 * ({@link io.sluice.internal.SluiceTimer}), and four stateless helpers
 * ({@link io.sluice.internal.Openers}, {@link io.sluice.internal.Descriptions},
 * {@link io.sluice.internal.Directories}, {@link io.sluice.internal.RegularFiles}). No class here
 * signals a subscriber or calls a subscription: each data path's package says which Reactive
 * Streams rules its drain enforces. Not exported.
 *
 * <h2>Roles</h2>
 * Field comments in this package and in {@code read} and {@code write} name threads by role:
 * <ul>
 *   <li><b>drain</b>: whoever runs an operation's {@link io.sluice.internal.SerialDrain}: its passes,
 *       one at a time on executor threads that may change from pass to pass, each happening-after
 *       the previous pass and the signals counted before it (D2); or its failure callback, which
 *       runs while no pass can (D4), on the pass's thread or on the thread whose signal the
 *       executor refused. An operation that hands its last steps to another executor once no pass
 *       will touch it again (a writer's finisher) hands the drain over with them.</li>
 *   <li><b>any thread</b>: a caller the operation does not control: a subscriber's
 *       {@code request}/{@code cancel}, a publisher's {@code onNext}, whoever completes a stage
 *       from outside, a consumer giving back a chunk. Such callers may overlap.</li>
 *   <li>A method name ({@code cancel()}, {@code onNext}) stands for whatever thread calls it.</li>
 * </ul>
 *
 * <h2>Field comments</h2>
 * Each field's one-line comment says who writes it and who reads it:
 * <ul>
 *   <li>{@code final} with no marker: set by the constructor, read by anyone. When it refers to a
 *       mutable object, the comment says who uses that object.</li>
 *   <li>{@code // drain-confined}: read and written by the drain only; a plain field, which D2
 *       orders. The constructor's initial value is set before the object is shared.</li>
 *   <li>{@code // W -> R}: written by W, read by R (for example {@code // any thread -> drain},
 *       {@code // drain -> any thread}); volatile or atomic unless a lock is named.</li>
 *   <li>{@code // any thread}: an atomic that any thread updates and reads.</li>
 *   <li>{@code // guarded by L}: read and written only while holding {@code L}.</li>
 * </ul>
 *
 * <h2>Who calls what</h2>
 * <ul>
 *   <li>{@link io.sluice.internal.SerialDrain}: {@code signal} and {@code release} from any
 *       thread; it runs the passes and the failure callback (D1-D6).</li>
 *   <li>{@link io.sluice.internal.OperationFuture}: {@code succeed}, {@code fail} and
 *       {@code enterCommit} from the drain; every other completion from any thread, which runs the
 *       abort hook on that thread before the stage completes (F1, F2), or hands the completion to
 *       an asynchronous abort that runs it when the operation has stopped (F4).</li>
 *   <li>{@link io.sluice.internal.AbortGate}: {@code open} from the drain, {@code abort} from any
 *       thread; the two meet under one lock, held only to change the gate's state, never during
 *       the open (G1-G3).</li>
 *   <li>{@link io.sluice.internal.CompensatingPool}: {@code watch} from any thread (it watches
 *       only on its pools' threads); its watcher runs on {@link io.sluice.internal.SluiceTimer}
 *       (H1-H3).</li>
 *   <li>{@link io.sluice.internal.Readiness}: the drain only, its {@code cancelled} supplier
 *       included.</li>
 *   <li>{@link io.sluice.internal.ChunkArena} and {@link io.sluice.internal.Loans}: any thread (a
 *       read's drain lends, a consumer gives back); no lock is shared by every thread: loans are
 *       a concurrent map (lock-free reads, one bin locked per write), idle slots are striped by
 *       thread, and P1-P3 in {@code ChunkArena} are the lending contract.
 *       {@link io.sluice.internal.LeakDetection} reports a collected loan on the lending thread
 *       that finds it.</li>
 *   <li>{@link io.sluice.internal.Openers}: calls a user's opener on the drain that invokes it.
 *       {@link io.sluice.internal.Descriptions}, {@link io.sluice.internal.Directories} and
 *       {@link io.sluice.internal.RegularFiles}: any thread, no state.</li>
 * </ul>
 */
package io.sluice.internal;
