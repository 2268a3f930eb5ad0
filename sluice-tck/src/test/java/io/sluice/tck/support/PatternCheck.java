package io.sluice.tck.support;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/** Checks, chunk by chunk, that a reader delivers {@link Pattern} bytes in order, full chunks only. */
public final class PatternCheck implements Consumer<ByteBuffer> {

    private final int chunkBytes;
    private final List<String> problems = new CopyOnWriteArrayList<>();
    private long position; // onNext only (serial, §1.3)

    public PatternCheck(int chunkBytes) {
        this.chunkBytes = chunkBytes;
    }

    @Override
    public void accept(ByteBuffer chunk) {
        if (chunk.remaining() != chunkBytes) {
            problems.add("chunk at byte " + position + " has " + chunk.remaining() + " bytes, not " + chunkBytes);
        }
        for (int i = chunk.position(); i < chunk.limit(); i++) {
            if (chunk.get(i) != Pattern.at(position)) {
                problems.add("wrong byte at " + position);
                return;
            }
            position++;
        }
    }

    public List<String> problems() {
        return problems;
    }
}
