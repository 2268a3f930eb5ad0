package io.sluice.stress;

import io.sluice.ChunkPool;
import io.sluice.internal.write.ChannelWriteSubscriber;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link ChannelWriteSubscriber}: the first lent chunk a write receives (actor 1) races
 * {@code cancel(true)} on the stage (actor 2). The drain runs on a direct executor, so it runs on
 * either actor's thread. Whether the chunk was written or dropped, the write gives it back exactly
 * once: a chunk queued while the cancelled write drops its queue is not lost.
 *
 * <p>Result: {@code cancel returned true, times the chunk was given back}.
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "cancelled; the chunk was written or dropped, and given back once")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "cancelled, and the chunk never given back")
@Outcome(expect = FORBIDDEN, desc = "given back twice, or the stage was not cancelled")
@State
public class WriterGiveBackStress {

    private final ChannelWriteSubscriber writer = StressWriters.subscribed(new MemoryChannel());
    private final AtomicInteger givenBack = new AtomicInteger();
    private final ByteBuffer chunk = ChunkPool.lend(ByteBuffer.allocate(4), givenBack::incrementAndGet);

    @Actor
    public void upstream() {
        writer.onNext(chunk);
    }

    @Actor
    public void cancel(II_Result result) {
        result.r1 = writer.result().cancel(true) ? 1 : 0;
    }

    @Arbiter
    public void arbiter(II_Result result) {
        result.r2 = givenBack.get();
    }
}
