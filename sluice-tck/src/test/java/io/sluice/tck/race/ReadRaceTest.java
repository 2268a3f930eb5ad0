package io.sluice.tck.race;

import io.sluice.ByteChannels;
import io.sluice.BytePublisher;
import io.sluice.ByteStreams;
import io.sluice.ReactiveFile;
import io.sluice.ReadOptions;
import io.sluice.tck.support.Pattern;
import io.sluice.tck.support.PatternChannel;
import io.sluice.tck.support.PatternCheck;
import io.sluice.tck.support.PatternInputStream;
import io.sluice.tck.support.ProtocolChecker;
import io.sluice.tck.support.Tck;
import io.sluice.tck.support.TempDir;
import io.sluice.testkit.OpenFiles;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.IntSupplier;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.fail;

/**
 * Read publishers under races: three threads hammer one subscription with {@code request(1)},
 * bulk requests and, in two rounds of three, {@code cancel} or an invalid {@code request(0)},
 * while the read itself races to completion. A {@link ProtocolChecker} records overlapping
 * signals, {@code onNext} beyond demand and any signal after a terminal one (§1.1, §1.3, §1.7); a
 * {@link PatternCheck} every lost, repeated or torn byte. Per round:
 * <ul>
 *   <li>no move: the read completes with every element;</li>
 *   <li>{@code request(0)}: the read ends with §3.9's {@link IllegalArgumentException}, or completes
 *       with every element if the {@code request(0)} may have come too late; it may not if it
 *       returned before the demand the read needs to end was requested (R6);</li>
 *   <li>{@code cancel}: the source is longer than all the round's demand, so the read can neither
 *       complete nor close its source by reaching its end: no terminal signal may come (§1.8), and
 *       an opened source must be closed all the same (R4).</li>
 * </ul>
 * After all rounds every opened source must be closed (R4, R5; a stream exactly once; files
 * through {@code /proc/self/fd}), and once the publishers have been quiet for a while every round
 * is checked again, so a signal that came after its round's checks is still seen (§1.7, §1.8).
 * Each test also checks that its rounds did exercise the order-dependent checks.
 */
public class ReadRaceTest {

    private static final int ROUNDS = 2000;
    private static final int ELEMENTS = 16;
    /** A cancel round's source: longer than all of a round's demand ({@code ELEMENTS + 1}). */
    private static final int CANCEL_ROUND_ELEMENTS = 4 * ELEMENTS;

    private static final int CHUNK_BYTES = 8;
    private static final long TIMEOUT_MILLIS = 5000;
    private static final ReadOptions OPTIONS = ReadOptions.defaults().withChunkSize(CHUNK_BYTES);

    private ExecutorService racers;
    private TempDir dir;

    /** What the third racer does in a round. */
    private enum Move {
        NOTHING,
        CANCEL,
        REQUEST_ZERO
    }

    /** One round: what it did and saw, kept so the end of the test can look at it again. */
    private static final class Round {
        final int number;
        final Move move;
        final PatternCheck content = new PatternCheck(CHUNK_BYTES);
        final ProtocolChecker<ByteBuffer> checker = new ProtocolChecker<>(content);
        volatile CountDownLatch sourceClosed; // set when the source is opened; null: a file, or never opened
        volatile IntSupplier sourceCloses; // close() calls of a stream; null: not counted
        volatile long requestedWhenZeroReturned; // REQUEST_ZERO: total demand once request(0) returned
        volatile boolean terminatedWhenCancelReturned;
        String where;

        Round(int number) {
            this.number = number;
            this.move = Move.values()[number % Move.values().length];
        }

        long sourceBytes() {
            return (long) (move == Move.CANCEL ? CANCEL_ROUND_ELEMENTS : ELEMENTS) * CHUNK_BYTES;
        }

        void opened(CountDownLatch closed, IntSupplier closes) {
            sourceCloses = closes;
            sourceClosed = closed;
        }
    }

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
        List<Round> rounds = runRounds(round -> ByteChannels.publisher(
                () -> {
                    PatternChannel channel = new PatternChannel(round.sourceBytes());
                    round.opened(channel.closedLatch(), null); // close() is idempotent: no count to check
                    return channel;
                },
                OPTIONS));
        checkAfterQuiescence(rounds);
    }

    @Test
    public void streamReadKeepsTheProtocolUnderRequestCancelAndCompletionRaces() throws Exception {
        List<Round> rounds = runRounds(round -> ByteStreams.publisher(
                () -> {
                    PatternInputStream stream = new PatternInputStream(round.sourceBytes());
                    round.opened(stream.closedLatch(), stream::closeCount);
                    return stream;
                },
                OPTIONS));
        checkAfterQuiescence(rounds);
    }

    @Test
    public void fileReadKeepsTheProtocolUnderRequestCancelAndCompletionRaces() throws Exception {
        BytePublisher complete =
                ReactiveFile.of(patternFile("complete.bin", ELEMENTS)).read(OPTIONS);
        BytePublisher longer = ReactiveFile.of(patternFile("longer.bin", CANCEL_ROUND_ELEMENTS))
                .read(OPTIONS);
        List<Round> rounds = runRounds(round -> round.move == Move.CANCEL ? longer : complete);
        assertNoOpenFiles();
        checkAfterQuiescence(rounds);
    }

    private Path patternFile(String name, int elements) throws IOException {
        byte[] bytes = new byte[elements * CHUNK_BYTES];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = Pattern.at(i);
        }
        return Files.write(dir.resolve(name), bytes);
    }

    /** Runs every round; then checks that every opened source was closed, and that the rounds covered the order checks. */
    private List<Round> runRounds(Function<Round, BytePublisher> publishers) throws Exception {
        List<Round> rounds = new ArrayList<>(ROUNDS);
        for (int number = 0; number < ROUNDS; number++) {
            Round round = new Round(number);
            race(publishers.apply(round), round);
            rounds.add(round);
        }
        int zeroBeforeFullDemand = 0;
        int zeroErrors = 0;
        int cancelledWhileOpen = 0;
        for (Round round : rounds) {
            if (round.sourceClosed != null) {
                assertTrue(
                        round.sourceClosed.await(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS),
                        round.where + "R4/R5: source never closed");
            }
            if (round.sourceCloses != null) {
                assertEquals(round.sourceCloses.getAsInt(), 1, round.where + "R5: stream not closed exactly once");
            }
            if (round.move == Move.REQUEST_ZERO && round.requestedWhenZeroReturned < ELEMENTS) {
                zeroBeforeFullDemand++;
            }
            if (round.checker.error() instanceof IllegalArgumentException) {
                zeroErrors++;
            }
            if (round.move == Move.CANCEL && round.checker.received() > 0) {
                cancelledWhileOpen++;
            }
        }
        // the order-dependent checks below must have had something to check
        assertTrue(
                zeroBeforeFullDemand > 0,
                "no round issued request(0) before its full demand: the §3.9 " + "order check never ran");
        assertTrue(zeroErrors > 0, "§3.9: no request(0) round ended with IllegalArgumentException");
        assertTrue(
                cancelledWhileOpen > 0,
                "no cancel round cancelled an opened source: the R4 close check " + "never ran");
        return rounds;
    }

    /** One round: subscribe, release three racers at once, then check what the subscriber saw. */
    private void race(BytePublisher publisher, Round round) throws Exception {
        ProtocolChecker<ByteBuffer> checker = round.checker;
        round.where = "round " + round.number + " (" + round.move + ", " + publisher + "): ";
        publisher.subscribe(checker);
        assertTrue(checker.awaitSubscribed(TIMEOUT_MILLIS), round.where + "§1.9: no onSubscribe");
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
            if (round.move == Move.CANCEL) {
                checker.cancel();
                checker.cancel(); // §3.7: a second cancel is a no-op
                round.terminatedWhenCancelReturned = checker.isTerminated();
            } else if (round.move == Move.REQUEST_ZERO) {
                checker.request(0);
                round.requestedWhenZeroReturned = checker.requested();
            }
            return null;
        });
        go.countDown();
        single.get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        bulk.get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        third.get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);

        if (round.move == Move.CANCEL) {
            checkNoTerminalSignal(round);
            CountDownLatch closed = round.sourceClosed;
            if (closed != null) {
                // R4: only the cancel can close it: the source outlasts the round's demand
                assertTrue(
                        closed.await(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS),
                        round.where + "R4: cancelled, but the source was never closed");
            }
        } else {
            assertTrue(
                    checker.awaitTerminated(TIMEOUT_MILLIS),
                    round.where + "no terminal signal; received " + checker.received() + " of " + ELEMENTS);
            checkTerminalSignal(round);
        }
        checkProtocol(round);
    }

    /**
     * §1.8: a possibly cancelled subscription should get no {@code onComplete} or {@code onError}.
     * In a cancel round neither can be legitimate at any time: the source outlasts all the demand,
     * so the read cannot complete, and it only fails if closed, which only the cancel does.
     */
    private static void checkNoTerminalSignal(Round round) {
        ProtocolChecker<ByteBuffer> checker = round.checker;
        if (checker.isTerminated()) {
            fail(round.where + "§1.8: " + (checker.error() == null ? "onComplete" : "onError(" + checker.error() + ")")
                    + (round.terminatedWhenCancelReturned ? " before cancel() returned" : " after cancel() returned")
                    + ", after " + checker.received() + " elements of a source longer than all the demand");
        }
    }

    private static void checkTerminalSignal(Round round) {
        ProtocolChecker<ByteBuffer> checker = round.checker;
        Throwable error = checker.error();
        if (round.move == Move.REQUEST_ZERO && round.requestedWhenZeroReturned < ELEMENTS) {
            // The read needs ELEMENTS requested before it can end, and the checker counts demand
            // before passing it on: request(0) reached the publisher before that demand did.
            assertTrue(
                    error instanceof IllegalArgumentException,
                    round.where + "§3.9: request(0) returned when "
                            + round.requestedWhenZeroReturned + " of " + ELEMENTS
                            + " elements were requested, before the "
                            + "read could end, so it must end with IllegalArgumentException; got "
                            + (error == null ? "onComplete after " + checker.received() + " elements" : error));
        }
        if (round.move == Move.REQUEST_ZERO && error != null) {
            assertTrue(
                    error instanceof IllegalArgumentException,
                    round.where + "§3.9: expected an " + "IllegalArgumentException, got " + error);
        } else {
            assertNull(error, round.where + "unexpected onError");
            assertEquals(checker.received(), ELEMENTS, round.where + "completed early");
        }
    }

    private static void checkProtocol(Round round) {
        if (!round.checker.violations().isEmpty() || !round.content.problems().isEmpty()) {
            fail(round.where + round.checker.violations() + " " + round.content.problems());
        }
    }

    /**
     * §1.7, §1.8: each round was checked as soon as it ended, so a signal sent after that (a second
     * terminal signal, an {@code onNext} after one, a terminal signal after a cancel) went unseen.
     * Every source is closed by now, so no publisher has anything left to signal; after a quiet
     * window, as long as the TCK's for signals that must not come, every round is checked again.
     * The window cannot be a latch: it waits for something that must not happen.
     */
    private static void checkAfterQuiescence(List<Round> rounds) throws InterruptedException {
        Thread.sleep(Tck.NO_SIGNALS_MILLIS);
        for (Round round : rounds) {
            checkProtocol(round);
            if (round.move == Move.CANCEL) {
                checkNoTerminalSignal(round);
            }
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
