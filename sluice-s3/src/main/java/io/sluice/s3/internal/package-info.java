/**
 * Internals of {@code io.sluice.s3}, not exported. Each operation (an upload, a read) owns a
 * {@link io.sluice.s3.internal.SerialEvents}: any thread may submit an event to it, and exactly one
 * thread at a time runs the queued events, on the core's {@code SerialDrain}, so the state they touch
 * is drain-confined without locks. An upload's stage is the core's {@code OperationFuture}.
 */
package io.sluice.s3.internal;
