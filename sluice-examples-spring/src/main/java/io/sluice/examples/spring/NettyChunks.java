package io.sluice.examples.spring;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import reactor.core.publisher.Flux;

import java.nio.ByteBuffer;

/**
 * sluice's pooled chunks as Netty buffers, so that Reactor Netty sends the chunk itself and its
 * release gives the chunk back to its pool. Without this, Spring's {@code ReactorServerHttpResponse}
 * turns every {@code DataBuffer} that is not a {@code NettyDataBuffer} into a heap copy
 * ({@code NettyDataBufferFactory.toByteBuf}) and never releases the original, so each chunk costs a
 * copy and is only reclaimed by the garbage collector, never lent again.
 *
 * <p><b>Resources:</b> each chunk is released exactly once, when Netty releases the buffer that
 * wraps it (sent, or discarded).
 */
final class NettyChunks {

    private NettyChunks() {
    }

    /** {@code chunks} as {@code factory}'s buffers if it is Netty's; else {@code chunks} unchanged. */
    static Flux<DataBuffer> on(DataBufferFactory factory, Flux<DataBuffer> chunks) {
        if (!(factory instanceof NettyDataBufferFactory netty)) {
            return chunks;
        }
        return chunks.map(chunk -> netty.wrap(toByteBuf(chunk)));
    }

    private static ByteBuf toByteBuf(DataBuffer chunk) {
        ByteBuffer view;
        try (DataBuffer.ByteBufferIterator views = chunk.readableByteBuffers()) {
            view = views.next();
        }
        return new ChunkByteBuf(view, chunk);
    }

    /**
     * A Netty buffer over a lent chunk's memory (a composite of its one read-only view, which
     * Netty writes to the socket as it is); its deallocation releases the chunk.
     */
    private static final class ChunkByteBuf extends CompositeByteBuf {
        private final DataBuffer chunk; // released once, by deallocate, when Netty's count reaches 0

        ChunkByteBuf(ByteBuffer view, DataBuffer chunk) {
            super(UnpooledByteBufAllocator.DEFAULT, view.isDirect(), 1, Unpooled.wrappedBuffer(view));
            this.chunk = chunk;
        }

        @Override
        protected void deallocate() {
            super.deallocate();
            DataBufferUtils.release(chunk);
        }
    }
}
