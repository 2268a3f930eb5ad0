/**
 * The read path: a file, channel or stream as a Reactive Streams publisher of byte chunks. Field
 * comments use the roles and markers of {@code io.sluice.internal}.
 *
 * <h2>What a read is</h2>
 * A publisher is built once per user call and holds only final fields, so {@code subscribe} may be
 * called from any thread, any number of times: a {@link io.sluice.internal.read.FileRangePublisher}
 * for a file's range (it is its own opener and check), a
 * {@link io.sluice.internal.read.ChannelPublisher} for a channel or stream. Each call makes one
 * read: a {@link io.sluice.internal.read.ReadSubscription}, which is its own drain, with its own
 * {@link io.sluice.internal.read.ReadBuffers} (made by the publisher's immutable
 * {@link io.sluice.internal.read.ChunkSupply}) and, from its first request, its own
 * {@link io.sluice.internal.read.ReadSource}. Two reads share nothing mutable but the
 * {@link io.sluice.internal.ChunkArena} their chunks may be lent from (and
 * {@link io.sluice.internal.Loans}), and a single-use publisher's claim flag.
 *
 * <h2>Who calls what, from which thread</h2>
 * <ul>
 *   <li>The subscribing thread: {@code subscribe} builds the read and sends {@code onSubscribe}
 *       while the drain is held, so no other signal precedes or overlaps it (R1).</li>
 *   <li>Any thread, the subscriber's: {@code request} and {@code cancel} write an atomic or
 *       volatile field and signal the drain; {@code cancel} also calls the open source's
 *       {@link io.sluice.internal.read.ReadSource#abort()} (R9). They may overlap each other and
 *       may be called from inside {@code onNext}, where a request only counts a signal. They
 *       signal the subscriber only if the executor refuses the drain's task: the drain's failure
 *       callback then ends the read on that thread, with {@code onError} unless it was
 *       cancelled.</li>
 *   <li>The drain (its passes, on the publisher's executor): everything else: the
 *       {@link io.sluice.internal.read.ReadSource.Check} (R8), the
 *       {@link io.sluice.internal.read.ReadSource.Opener} (R3), every call on the source but
 *       {@code abort} and every call on the buffers, and every signal after {@code onSubscribe}:
 *       {@code onNext}, {@code onComplete}, {@code onError}.</li>
 *   <li>Any thread, the consumer's: gives an emitted lent chunk back, through
 *       {@code ChunkPool.giveBack}, to {@link io.sluice.internal.Loans} and the arena.</li>
 * </ul>
 *
 * <h2>Reactive Streams rules</h2>
 * Stated once, as {@code ReadSubscription}'s invariants, and enforced there: §1.1 (R2); §1.3, the
 * drain sending every signal after {@code onSubscribe} (R1); §1.4 and §1.9 (R3, R8); §1.7 (R5);
 * §1.8 and §3.5 (R9); §3.5, §3.7 and §3.13 (R4); §3.9 (R6); §3.17 (R7). Besides: §1.9, a
 * {@code null} subscriber, in each publisher's {@code subscribe}, and §1.11, a single-use source's
 * second subscriber, in {@code ChannelPublisher.subscribe}; §2.13, a subscriber that throws, which
 * {@code ReadSubscription} treats as a cancel and logs; §3.3, bounded recursion, since
 * {@code request} from {@code onNext} only signals the drain that is running it. §2.7 binds the
 * subscriber; nothing here depends on it.
 *
 * <h2>Chunk lending</h2>
 * With lent chunks ({@link io.sluice.internal.read.ChunkSupply#lent}), the drain lends each
 * chunk from the arena ({@link io.sluice.internal.read.LentChunks}) and gives back those it does
 * not emit; the consumer gives back the ones it received. From an arena that keeps no buffers,
 * {@link io.sluice.internal.read.OwnedChunks#lentFrom} lends only the chunks it emits, each a heap
 * buffer of its own. The contract is stated where its state
 * lives: P1-P3 in {@link io.sluice.internal.ChunkArena} (what the arena lends, and how much direct
 * memory), R11 in {@code ReadSubscription} (who holds a chunk when).
 */
package io.sluice.internal.read;
