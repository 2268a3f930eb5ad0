/**
 * Internals of {@code io.sluice.s3}, not exported. Each operation (an upload, a read) owns a
 * {@link io.sluice.s3.internal.Drain}: any thread may submit an event to it, and exactly one thread
 * at a time runs the queued events, so the state they touch is drain-confined without locks.
 */
package io.sluice.s3.internal;
