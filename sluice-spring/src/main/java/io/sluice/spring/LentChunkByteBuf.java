package io.sluice.spring;

import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.IllegalReferenceCountException;
import io.sluice.ChunkPool;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;

import java.nio.ByteBuffer;

/**
 * A chunk lent by a {@link ChunkPool} as a Netty buffer over the same memory, so that a Netty
 * transport (Reactor Netty's response) sends the chunk itself instead of copying it, and Netty's
 * deallocation, when the reference count reaches 0, gives the chunk back.
 *
 * <p>The one class of this module that names Netty types: {@link DataBufferFiles} reaches it only
 * after it found Netty on the class path and the factory to be a {@link NettyDataBufferFactory},
 * so without Netty nothing loads it.
 *
 * <p>A composite of one component, the chunk wrapped without a copy ({@code Unpooled.wrappedBuffer},
 * which never frees memory it did not allocate): Netty's transports write it as that component.
 * Netty counts the references (one at creation; {@code retain}, {@code release}, and derived
 * buffers share the count); a release with none left throws {@link IllegalReferenceCountException}
 * before {@link #deallocate()}, so the chunk goes back exactly once. {@code touch(hint)} forwards
 * the hint to {@link ChunkPool#touch}, which a leak report names.
 */
final class LentChunkByteBuf extends CompositeByteBuf {

    private final ByteBuffer chunk; // the object the pool lent: given back by deallocate, once

    private LentChunkByteBuf(ByteBuffer chunk) {
        super(UnpooledByteBufAllocator.DEFAULT, chunk.isDirect(), 1, Unpooled.wrappedBuffer(chunk));
        this.chunk = chunk;
    }

    /** Wraps {@code chunk}, as a read emitted it (position 0, limit at the bytes read), as {@code factory}'s buffer. */
    static DataBuffer of(NettyDataBufferFactory factory, ByteBuffer chunk) {
        return factory.wrap(new LentChunkByteBuf(chunk));
    }

    /** Records {@code hint} as where the chunk was last touched, for a leak report (only with leak detection on). */
    @Override
    public CompositeByteBuf touch(Object hint) {
        ChunkPool.touch(chunk, hint);
        return this;
    }

    @Override
    public CompositeByteBuf touch() {
        return touch(null);
    }

    @Override
    protected void deallocate() {
        super.deallocate(); // releases the wrapping component; it frees nothing
        ChunkPool.giveBack(chunk); // Netty calls this once, when the count reaches 0
    }
}
