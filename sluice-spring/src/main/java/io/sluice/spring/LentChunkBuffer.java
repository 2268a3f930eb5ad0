package io.sluice.spring;

import io.sluice.ChunkPool;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferWrapper;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.core.io.buffer.PooledDataBuffer;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A chunk lent by a {@link ChunkPool} as a {@link PooledDataBuffer}: the last {@link #release()}
 * gives the chunk back to its pool, so {@code DataBufferUtils.release(buffer)} does.
 *
 * <p>Reference counted like Netty's buffers: one reference at creation, {@link #retain()} adds one,
 * {@link #release()} drops one and gives the chunk back when none is left. A {@code release()} with
 * no reference left throws {@link IllegalStateException} (as Netty's
 * {@code IllegalReferenceCountException} does) and gives back nothing;
 * {@code DataBufferUtils.release} checks {@link #isAllocated()} first and so returns {@code false}
 * instead. {@link #split(int)} and {@link #retainedSlice(int, int)} take a reference for the part
 * they return, which shares this buffer's count; {@link #slice(int, int)} and the byte buffer views
 * take none and are valid only until the chunk is given back. {@link #touch(Object)} forwards its
 * hint to {@link ChunkPool#touch}, which a leak report names.
 *
 * <p>Threading: the count is atomic, so buffers may be retained and released from any thread; the
 * content follows {@link DataBuffer}'s rules (one thread at a time).
 */
final class LentChunkBuffer extends DataBufferWrapper implements PooledDataBuffer {

    private final Loan loan; // shared by this buffer and its split parts

    /** One lent chunk and the references to it. */
    private static final class Loan {
        final ByteBuffer chunk; // the object the pool lent: the one to give back
        final AtomicInteger references = new AtomicInteger(1); // any thread

        Loan(ByteBuffer chunk) {
            this.chunk = chunk;
        }
    }

    private LentChunkBuffer(DataBuffer content, Loan loan) {
        super(content);
        this.loan = loan;
    }

    /** Wraps {@code chunk}, as a read emitted it (position 0, limit at the bytes read), without a copy. */
    static LentChunkBuffer of(ByteBuffer chunk) {
        return new LentChunkBuffer(DefaultDataBufferFactory.sharedInstance.wrap(chunk), new Loan(chunk));
    }

    @Override
    public boolean isAllocated() {
        return loan.references.get() > 0;
    }

    @Override
    public PooledDataBuffer retain() {
        loan.references.getAndUpdate(count -> {
            if (count <= 0) {
                throw new IllegalStateException("retain() on a released buffer: its chunk is back in the pool");
            }
            return count + 1;
        });
        return this;
    }

    /** Records {@code hint} as where the chunk was last touched, for a leak report (only with leak detection on). */
    @Override
    public PooledDataBuffer touch(Object hint) {
        ChunkPool.touch(loan.chunk, hint);
        return this;
    }

    @Override
    public boolean release() {
        int left = loan.references.getAndUpdate(count -> count > 0 ? count - 1 : count) - 1;
        if (left < 0) {
            throw new IllegalStateException("release() on a released buffer: its chunk is back in the pool already");
        }
        if (left == 0) {
            ChunkPool.giveBack(loan.chunk); // the only path back: the count reaches 0 once
            return true;
        }
        return false;
    }

    // Derived buffers share the loan; fluent calls return this wrapper, never the wrapped buffer,
    // so that releasing what a call returned releases the chunk.

    @Override
    public DataBuffer split(int index) {
        DataBuffer part = dataBuffer().split(index);
        retain();
        return new LentChunkBuffer(part, loan);
    }

    @Override
    @Deprecated
    public DataBuffer retainedSlice(int index, int length) {
        @SuppressWarnings("deprecation")
        DataBuffer part = dataBuffer().slice(index, length);
        retain();
        return new LentChunkBuffer(part, loan);
    }

    @Override
    public InputStream asInputStream(boolean releaseOnClose) {
        InputStream content = dataBuffer().asInputStream(false);
        if (!releaseOnClose) {
            return content;
        }
        return new FilterInputStream(content) {
            private boolean closed; // the closing thread: a second close releases nothing

            @Override
            public void close() throws IOException {
                if (!closed) {
                    closed = true;
                    release(); // this wrapper: the chunk goes back
                }
                super.close();
            }
        };
    }

    @Override
    public DataBuffer capacity(int capacity) {
        dataBuffer().capacity(capacity);
        return this;
    }

    @Override
    @Deprecated
    public DataBuffer ensureCapacity(int capacity) {
        return ensureWritable(capacity);
    }

    @Override
    public DataBuffer ensureWritable(int capacity) {
        dataBuffer().ensureWritable(capacity);
        return this;
    }

    @Override
    public DataBuffer readPosition(int readPosition) {
        dataBuffer().readPosition(readPosition);
        return this;
    }

    @Override
    public DataBuffer writePosition(int writePosition) {
        dataBuffer().writePosition(writePosition);
        return this;
    }

    @Override
    public DataBuffer read(byte[] destination) {
        dataBuffer().read(destination);
        return this;
    }

    @Override
    public DataBuffer read(byte[] destination, int offset, int length) {
        dataBuffer().read(destination, offset, length);
        return this;
    }

    @Override
    public DataBuffer write(byte oneByte) {
        dataBuffer().write(oneByte);
        return this;
    }

    @Override
    public DataBuffer write(byte[] source) {
        dataBuffer().write(source);
        return this;
    }

    @Override
    public DataBuffer write(byte[] source, int offset, int length) {
        dataBuffer().write(source, offset, length);
        return this;
    }

    @Override
    public DataBuffer write(DataBuffer... buffers) {
        dataBuffer().write(buffers);
        return this;
    }

    @Override
    public DataBuffer write(ByteBuffer... buffers) {
        dataBuffer().write(buffers);
        return this;
    }

    @Override
    public DataBuffer write(CharSequence charSequence, Charset charset) {
        dataBuffer().write(charSequence, charset);
        return this;
    }

    /** Equal by content, as {@code DefaultDataBuffer}s are: the readable bytes and positions. */
    @Override
    public boolean equals(Object other) {
        return other instanceof LentChunkBuffer lent && dataBuffer().equals(lent.dataBuffer());
    }

    @Override
    public int hashCode() {
        return dataBuffer().hashCode();
    }

    @Override
    public String toString() {
        return "LentChunkBuffer[readable=" + readableByteCount() + ", references=" + loan.references.get() + "]";
    }
}
