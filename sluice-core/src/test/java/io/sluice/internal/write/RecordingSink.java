package io.sluice.internal.write;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;

/** A scripted sink: records write calls and content; can fail on a chosen call. */
final class RecordingSink implements WriteSink {
    final ByteArrayOutputStream content = new ByteArrayOutputStream();
    boolean recordContent = true;
    long bytes;
    int writeCalls;
    long items;
    int opens;
    int closes;
    int forces;
    int commits;
    int aborts;
    Runnable onCommit = () -> {};
    Runnable onForce = () -> {};
    Runnable onWrite = () -> {};
    IOException failOnWrite;
    IOException failOnOpen;

    @Override
    public void open(Stop stop) throws IOException {
        opens++;
        if (failOnOpen != null) {
            throw failOnOpen;
        }
    }

    @Override
    public boolean writeFully(ByteBuffer[] batch, int offset, int count) throws IOException {
        writeCalls++;
        onWrite.run();
        if (failOnWrite != null) {
            throw failOnWrite;
        }
        for (int i = offset; i < offset + count; i++) {
            ByteBuffer item = batch[i];
            bytes += item.remaining();
            if (recordContent) {
                byte[] copy = new byte[item.remaining()];
                item.get(copy);
                content.writeBytes(copy);
            } else {
                item.position(item.limit());
            }
            items++;
        }
        return true;
    }

    @Override
    public void force() {
        forces++;
        onForce.run();
    }

    @Override
    public void commit() {
        commits++;
        onCommit.run();
    }

    @Override
    public void abort() {
        aborts++;
    }

    @Override
    public void close() {
        closes++;
    }
}
