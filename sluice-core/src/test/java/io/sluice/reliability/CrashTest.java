package io.sluice.reliability;

import io.sluice.ReactiveFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A child JVM writing in atomic-replace mode is killed with SIGKILL ({@link Process#destroyForcibly()})
 * at random points, many times. After every kill the target holds exactly the complete old or the
 * complete new version, never a mix or a prefix; the documented cleanup then removes every leftover
 * temporary file. Runs: {@code -Dsluice.crash.runs} (default 40), stopped early after 30 s of
 * killing (at least 10 runs).
 *
 * <p>That kills land mid-write is shown, not hoped for. The child reports how many bytes the
 * writer has put into the temporary file; every eighth run, starting with the first, its upstream
 * stalls after a random number of chunks and the parent kills it only once the child has reported
 * exactly those bytes written: that kill is mid-write by construction, and the temporary file it
 * leaves holds exactly the reported bytes. A random kill counts as mid-write when the child had
 * reported bytes written and the target kept the old content.
 */
class CrashTest {

    static final int RUNS = Integer.getInteger("sluice.crash.runs", 40);
    static final long BUDGET_NANOS = TimeUnit.SECONDS.toNanos(30);
    static final int MIN_RUNS = Math.min(10, RUNS);
    static final long MAX_KILL_DELAY_MILLIS = 120;
    private static final long LINE_TIMEOUT_SECONDS = 30;
    private static final String END_OF_OUTPUT = "\u0000end";

    @TempDir
    Path directory;

    /** Version {@code n} of the content: sizes differ, so a prefix or mix of two versions is caught. */
    static byte[] version(int n) {
        return Content.bytes(1000 + n, 3 * 1024 * 1024 + 4099 * n);
    }

    /** How one child run was ended, and what it reported before that. */
    private record ChildRun(boolean killed, boolean reportedDone, long reportedWrittenBytes) {}

    @Test
    void aKilledAtomicWriteLeavesTheCompleteOldOrNewContent() throws Exception {
        Path target = directory.resolve("target.bin");
        int current = 0;
        Files.write(target, version(current));
        Random random = new Random();
        long seed = random.nextLong();
        random.setSeed(seed);
        int keptOld = 0;
        int replaced = 0;
        int stalledKills = 0;
        int randomKillsMidWrite = 0;
        int runs = 0;
        long started = System.nanoTime();
        while (runs < RUNS && (runs < MIN_RUNS || System.nanoTime() - started < BUDGET_NANOS)) {
            int next = current + 1;
            boolean stalled = runs % 8 == 0;
            int stallAtChunk = stalled ? 1 + random.nextInt(AtomicWriterChild.chunks(next) - 1) : -1;
            long delayMillis = runs % 8 == 7 ? -1 : random.nextInt((int) MAX_KILL_DELAY_MILLIS + 1);
            Set<String> temporariesBefore = new HashSet<>(Stages.temporaries(directory));
            String where = "run " + runs + " (seed " + seed
                    + (stalled ? ", stalled at chunk " + stallAtChunk : ", kill after " + delayMillis + " ms") + ")";

            ChildRun child = runChild(target, next, stallAtChunk, delayMillis);
            if (!child.killed()) {
                assertTrue(child.reportedDone(), where + ": a child left alone must finish its write");
            }

            String actual = Content.sha256(target);
            if (actual.equals(Content.sha256(version(next)))) {
                assertTrue(!stalled, where + ": a stalled write cannot have replaced the target");
                replaced++;
                current = next;
            } else if (actual.equals(Content.sha256(version(current)))) {
                assertTrue(
                        !child.reportedDone(), where + ": the child reported done but the target has the old content");
                keptOld++;
                if (stalled) {
                    stalledKills++;
                    long expectedBytes = (long) stallAtChunk * AtomicWriterChild.CHUNK_BYTES;
                    assertEquals(
                            expectedBytes, child.reportedWrittenBytes(), where + ": bytes written before the kill");
                    assertEquals(
                            expectedBytes,
                            leftoverSize(temporariesBefore),
                            where + ": the killed write's temporary file holds exactly the bytes reported written");
                } else if (child.killed() && child.reportedWrittenBytes() > 0) {
                    randomKillsMidWrite++;
                }
            } else {
                fail(where + ": the target is " + Files.size(target) + " bytes of neither version " + current + " nor "
                        + next);
            }
            runs++;
        }
        int leftovers = Stages.temporaries(directory).size();
        System.out.printf(
                "CrashTest: %d runs (seed %d): %d kept the old content, %d replaced it; "
                        + "killed mid-write: %d stalled + %d random; %d temporary files left before cleanup%n",
                runs, seed, keptOld, replaced, stalledKills, randomKillsMidWrite, leftovers);

        assertEquals((runs + 7) / 8, stalledKills, "every stalled run was killed mid-write");
        assertEquals(leftovers, ReactiveFile.removeStaleTemporaries(directory));
        assertEquals(List.of(), Stages.temporaries(directory));
        try (var entries = Files.list(directory)) {
            assertEquals(List.of(target), entries.toList(), "only the target is left");
        }
    }

    /** The size of the one temporary file that appeared since {@code before}. */
    private long leftoverSize(Set<String> before) throws IOException {
        List<String> appeared = new ArrayList<>(Stages.temporaries(directory));
        appeared.removeAll(before);
        assertEquals(1, appeared.size(), "one temporary file left by the killed write: " + appeared);
        return Files.size(directory.resolve(appeared.get(0)));
    }

    /**
     * Starts a child writing {@code version}; once it is writing, kills it when it has reported the
     * stall point written ({@code stallAtChunk >= 0}), else after {@code delayMillis}, or lets it
     * finish ({@code delayMillis < 0}).
     */
    private static ChildRun runChild(Path target, int version, int stallAtChunk, long delayMillis) throws Exception {
        Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>(List.of(
                java.toString(),
                "-Xshare:auto",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                AtomicWriterChild.class.getName(),
                target.toString(),
                Integer.toString(version),
                Integer.toString(stallAtChunk)));
        Process child = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = readLines(child, lines);
        List<String> seen = new ArrayList<>();
        try {
            if (awaitLine(lines, seen, "writing"::equals) == null) {
                child.destroyForcibly();
                child.waitFor(30, TimeUnit.SECONDS);
                fail("the child did not start writing (printed " + seen + ", exit "
                        + (child.isAlive() ? "still alive" : child.exitValue()) + "); classpath "
                        + System.getProperty("java.class.path").split(File.pathSeparator).length + " entries");
            }
            boolean killed = false;
            if (stallAtChunk >= 0) {
                String stallPoint = "written " + (long) stallAtChunk * AtomicWriterChild.CHUNK_BYTES;
                if (awaitLine(lines, seen, stallPoint::equals) == null) {
                    fail("the stalled child never reported '" + stallPoint + "'; it printed " + seen);
                }
                child.destroyForcibly(); // mid-write: the upstream will never produce more
                killed = true;
            } else if (delayMillis >= 0) {
                Thread.sleep(delayMillis); // a random kill point, not synchronisation
                child.destroyForcibly();
                killed = true;
            }
            if (!child.waitFor(60, TimeUnit.SECONDS)) {
                child.destroyForcibly();
                fail("the child did not end within 60 s");
            }
            reader.join(TimeUnit.SECONDS.toMillis(LINE_TIMEOUT_SECONDS));
            awaitLine(lines, seen, END_OF_OUTPUT::equals);
            long written = 0;
            for (String line : seen) {
                if (line.startsWith("written ")) {
                    written = Math.max(written, Long.parseLong(line.substring("written ".length())));
                }
            }
            return new ChildRun(killed, seen.contains("done"), written);
        } finally {
            child.destroyForcibly();
        }
    }

    /** Copies the child's output lines into {@code lines}, then {@link #END_OF_OUTPUT}. */
    private static Thread readLines(Process child, BlockingQueue<String> lines) {
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader out =
                            new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                        for (String line = out.readLine(); line != null; line = out.readLine()) {
                            lines.add(line);
                        }
                    } catch (IOException killed) {
                        // the pipe broke with the process: what was read is all there is
                    } finally {
                        lines.add(END_OF_OUTPUT);
                    }
                },
                "crash-child-output");
        reader.setDaemon(true);
        reader.start();
        return reader;
    }

    /**
     * Takes lines (recording them in {@code seen}) until one matches; returns it, or null when the
     * output ended or no line came for {@link #LINE_TIMEOUT_SECONDS}.
     */
    private static String awaitLine(BlockingQueue<String> lines, List<String> seen, Predicate<String> wanted)
            throws InterruptedException {
        for (; ; ) {
            String line = lines.poll(LINE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (line == null || line.equals(END_OF_OUTPUT)) {
                return wanted.test(END_OF_OUTPUT) ? line : null;
            }
            seen.add(line);
            if (wanted.test(line)) {
                return line;
            }
        }
    }
}
