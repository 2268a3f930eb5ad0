package io.sluice.tck.race;

import io.sluice.ByteChannels;
import io.sluice.BytePublisher;
import io.sluice.ByteStreams;
import io.sluice.ReactiveFile;
import io.sluice.ReadOptions;
import io.sluice.tck.support.OpenFiles;
import io.sluice.tck.support.Pattern;
import io.sluice.tck.support.PatternChannel;
import io.sluice.tck.support.PatternCheck;
import io.sluice.tck.support.PatternInputStream;
import io.sluice.tck.support.ProtocolChecker;
import io.sluice.tck.support.TempDir;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.fail;

/**
 * Read publishers under races: three threads hammer one subscription with {@code request(1)},
 * bulk requests and, in most rounds, {@code cancel} or an invalid {@code request(0)}, while the
 * read itself races to completion. A {@link ProtocolChecker} fails the round on overlapping
 * signals, {@code onNext} beyond demand or any signal after a terminal one (§1.1, §1.3, §1.7);
 * a {@link PatternCheck} on every lost, repeated or torn byte; and every source must end up
 * closed exactly once (R4, R5).
 */
public class ReadRaceTest {

    private static final int ROUNDS = 2000;
    private static final int ELEMENTS = 16;
    private static final int CHUNK_BYTES = 8;
    private static final long TIMEOUT_MILLIS = 5000;

    private ExecutorService racers;
    private TempDir dir;

    /** What the third racer does in a round. */
    private enum Move { NOTHING, CANCEL, REQUEST_ZERO }

    @BeforeClass
    public void start() {
        racers = Executors.newFixedThreadPool(3);
        dir = new TempDir("read-race");
    }

    @AfterClass(alwaysRun = true)
    public void stop() throws InterruptedException {
        racers.shutdownNow();
        assertTrue(racers.awaitTermination(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS), "racer threads did not end");
        dir.close();
    }

    @Test
    public void channelReadKeepsTheProtocolUnderRequestCancelAndCompletionRaces() throws Exception {
        List<PatternChannel> opened = new CopyOnWriteArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            BytePublisher publisher = ByteChannels.publisher(() -> {
                PatternChannel channel = new PatternChannel((long) ELEMENTS * CHUNK_BYTES);
                opened.add(channel);
                return channel;
            }, ReadOptions.defaults().withChunkSize(CHUNK_BYTES));
            race(publisher, round);
        }
        for (PatternChannel channel : opened) {
            assertTrue(channel.closedLatch().await(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS),
                    "R4/R5: channel never closed");
            assertEquals(channel.closeCount(), 1, "R5: channel closed more than once");
        }
    }

    @Test
    public void streamReadKeepsTheProtocolUnderRequestCancelAndCompletionRaces() throws Exception {
        List<PatternInputStream> opened = new CopyOnWriteArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            BytePublisher publisher = ByteStreams.publisher(() -> {
                PatternInputStream stream = new PatternInputStream((long) ELEMENTS * CHUNK_BYTES);
                opened.add(stream);
                return stream;
            }, ReadOptions.defaults().withChunkSize(CHUNK_BYTES));
            race(publisher, round);
        }
        for (PatternInputStream stream : opened) {
            assertTrue(stream.closedLatch().await(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS),
                    "R4/R5: stream never closed");
            assertEquals(stream.closeCount(), 1, "R5: stream closed more than once");
        }
    }

    @Test
    public void fileReadKeepsTheProtocolUnderRequestCancelAndCompletionRaces() throws Exception {
        Path file = dir.resolve("sixteen-chunks.bin");
        byte[] bytes = new byte[ELEMENTS * CHUNK_BYTES];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = Pattern.at(i);
        }
        Files.write(file, bytes);
        BytePublisher publisher = ReactiveFile.of(file).read(ReadOptions.defaults().withChunkSize(CHUNK_BYTES));
        for (int round = 0; round < ROUNDS; round++) {
            race(publisher, round);
        }
        assertNoOpenFiles();
    }

    /** One round: subscribe, release three racers at once, then check what the subscriber saw. */
    private void race(BytePublisher publisher, int round) throws Exception {
        PatternCheck content = new PatternCheck(CHUNK_BYTES);
        ProtocolChecker<ByteBuffer> checker = new ProtocolChecker<>(content);
        publisher.subscribe(checker);
        assertTrue(checker.awaitSubscribed(TIMEOUT_MILLIS), "§1.9: no onSubscribe");
        Move move = Move.values()[round % Move.values().length];
        int spins = ThreadLocalRandom.current().nextInt(2000);
        CountDownLatch go = new CountDownLatch(1);
        // ELEMENTS + 1 in all: a channel's end is found by one more read after the last chunk
        Future<?> single = racers.submit(() -> {
            go.await();
            for (int i = 0; i < ELEMENTS / 2 + 1; i++) {
                checker.request(1);
            }
            return null;
        });
        Future<?> bulk = racers.submit(() -> {
            go.await();
            checker.request(ELEMENTS / 4);
            checker.request(ELEMENTS / 4);
            return null;
        });
        Future<?> third = racers.submit(() -> {
            go.await();
            for (int i = 0; i < spins; i++) {
                Thread.onSpinWait();
            }
            if (move == Move.CANCEL) {
                checker.cancel();
                checker.cancel();                 // §3.7: a second cancel is a no-op
            } else if (move == Move.REQUEST_ZERO) {
                checker.request(0);
            }
            return null;
        });
        go.countDown();
        single.get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        bulk.get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        third.get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);

        String where = "round " + round + " (" + move + ", " + publisher + "): ";
        if (move != Move.CANCEL) {
            assertTrue(checker.awaitTerminated(TIMEOUT_MILLIS), where + "no terminal signal; received "
                    + checker.received() + " of " + ELEMENTS);
        }
        if (checker.isTerminated()) {
            Throwable error = checker.error();
            if (move == Move.REQUEST_ZERO && error != null) {
                assertTrue(error instanceof IllegalArgumentException, where + "§3.9: expected an "
                        + "IllegalArgumentException, got " + error);
            } else {
                assertNull(error, where + "unexpected onError");
                assertEquals(checker.received(), ELEMENTS, where + "completed early");
            }
        }
        if (!checker.violations().isEmpty() || !content.problems().isEmpty()) {
            fail(where + checker.violations() + " " + content.problems());
        }
    }

    private void assertNoOpenFiles() {
        if (!OpenFiles.supported()) {
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MILLIS);
        while (!OpenFiles.under(dir.root()).isEmpty() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
        assertEquals(OpenFiles.under(dir.root()), List.of(), "R4/R5: files left open after the reads ended");
    }

}
