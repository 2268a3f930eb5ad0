/**
 * Spring's {@code DataBuffer} on sluice: {@link io.sluice.spring.DataBufferFiles} writes a
 * {@code Publisher<DataBuffer>} to a file or channel and reads a file as a {@code Flux<DataBuffer>}
 * of pooled chunks; {@link io.sluice.spring.FileParts} replaces WebFlux's
 * {@code FilePart.transferTo(Path)} and stores a form's file parts from its {@code PartEvent}s as
 * they arrive.
 *
 * <p><b>Threading:</b> every operation is cold and runs on sluice's executors; signals reach the
 * subscriber from the operation's executor thread.
 *
 * <p><b>Resources:</b> the one rule Spring users know holds throughout: whoever holds a
 * {@code DataBuffer} releases it once. A write releases each buffer it receives once its bytes are
 * written (through {@link io.sluice.ChunkPool#lend}, whose give-back the writer calls); a read hands
 * out buffers whose release gives their chunk back to a {@link io.sluice.ChunkPool}.
 */
package io.sluice.spring;
