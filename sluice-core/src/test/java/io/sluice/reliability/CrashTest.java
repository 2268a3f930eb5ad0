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
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A child JVM writing in atomic-replace mode is killed with SIGKILL ({@link Process#destroyForcibly()})
 * at random points, many times. After every kill the target holds exactly the complete old or the
 * complete new version, never a mix or a prefix; the documented cleanup then removes every leftover
 * temporary file. Runs: {@code -Dsluice.crash.runs} (default 40), stopped early after 30 s of
 * killing (at least 10 runs).
 */
class CrashTest {

    static final int RUNS = Integer.getInteger("sluice.crash.runs", 40);
    static final long BUDGET_NANOS = TimeUnit.SECONDS.toNanos(30);
    static final int MIN_RUNS = Math.min(10, RUNS);
    static final long MAX_KILL_DELAY_MILLIS = 120;

    @TempDir
    Path directory;

    /** Version {@code n} of the content: sizes differ, so a prefix or mix of two versions is caught. */
    static byte[] version(int n) {
        return Content.bytes(1000 + n, 3 * 1024 * 1024 + 4099 * n);
    }

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
        int runs = 0;
        long started = System.nanoTime();
        while (runs < RUNS && (runs < MIN_RUNS || System.nanoTime() - started < BUDGET_NANOS)) {
            long delayMillis = runs % 8 == 7 ? -1 : random.nextInt((int) MAX_KILL_DELAY_MILLIS + 1);
            boolean completed = runChild(target, current + 1, delayMillis);
            String actual = Content.sha256(target);
            if (actual.equals(Content.sha256(version(current + 1)))) {
                replaced++;
                current++;
            } else if (actual.equals(Content.sha256(version(current)))) {
                assertTrue(!completed, "the child reported done but the target has the old content (run "
                        + runs + ", seed " + seed + ")");
                keptOld++;
            } else {
                fail("run " + runs + " (seed " + seed + ", kill after " + delayMillis + " ms): the target is "
                        + Files.size(target) + " bytes of neither version " + current + " nor " + (current + 1));
            }
            runs++;
        }
        int leftovers = Stages.temporaries(directory).size();
        System.out.printf("CrashTest: %d runs (seed %d): %d kept the old content, %d replaced it, "
                + "%d temporary files left before cleanup%n", runs, seed, keptOld, replaced, leftovers);

        assertEquals(leftovers, ReactiveFile.removeStaleTemporaries(directory));
        assertEquals(List.of(), Stages.temporaries(directory));
        try (var entries = Files.list(directory)) {
            assertEquals(List.of(target), entries.toList(), "only the target is left");
        }
    }

    /**
     * Starts a child writing {@code version}, waits until it is writing, kills it after
     * {@code delayMillis} (or lets it finish when negative); returns whether it reported done.
     */
    private static boolean runChild(Path target, int version, long delayMillis) throws Exception {
        Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>(List.of(java.toString(), "-Xshare:auto", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), AtomicWriterChild.class.getName(),
                target.toString(), Integer.toString(version)));
        Process child = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            String first = out.readLine();
            if (!"writing".equals(first)) {
                child.waitFor(30, TimeUnit.SECONDS);
                fail("the child did not start writing (printed " + first + ", exit "
                        + (child.isAlive() ? "still alive" : child.exitValue()) + "); classpath "
                        + System.getProperty("java.class.path").split(File.pathSeparator).length + " entries");
            }
            if (delayMillis >= 0) {
                Thread.sleep(delayMillis);       // a random kill point, not synchronisation
                child.destroyForcibly();
            }
            if (!child.waitFor(60, TimeUnit.SECONDS)) {
                child.destroyForcibly();
                fail("the child did not end within 60 s");
            }
            String last = drain(out);
            return last != null && last.contains("done");
        } finally {
            child.destroyForcibly();
        }
    }

    private static String drain(BufferedReader out) {
        StringBuilder all = new StringBuilder();
        try {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                all.append(line).append('\n');
            }
        } catch (IOException killed) {
            // the pipe broke with the process: what was read is all there is
        }
        return all.toString();
    }
}
