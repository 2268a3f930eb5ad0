package io.sluice.lab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A child JVM's command line, its readiness line and port, a conversation over stdin, why it died, and a stop
 * that ends it either way.
 */
class ChildJvmTest {

    private static ChildJvm.Spec child(String mode) {
        return ChildJvm.main("scripted " + mode, ScriptedChild.class.getName()).maxHeap("64m")
                .args(List.of(mode));
    }

    @Test
    void theCommandLinePutsLauncherHeapOptionsProgramAndArgumentsInThatOrder() {
        List<String> command = ChildJvm.jar("app", Path.of("app.jar")).launcher(List.of("taskset", "-c", "0"))
                .java("/opt/java").maxHeap("1g").exitOnOutOfMemory().options(List.of("-Dx=1"))
                .args(List.of("--port", "0")).command();

        assertEquals(List.of("taskset", "-c", "0", "/opt/java", "-Xmx1g", "-XX:+ExitOnOutOfMemoryError", "-Dx=1",
                "-jar", "app.jar", "--port", "0"), command);
        assertEquals(List.of(ChildJvm.java().toString(), "-cp", System.getProperty("java.class.path"), "Main"),
                ChildJvm.main("plain", "Main").command());
    }

    @Test
    void aReadyChildNamesItsPortAndAnswersOverStdin() throws Exception {
        try (ChildJvm jvm = child("ready").start()) {
            assertEquals(4711, jvm.awaitReady());
            assertEquals(4711, jvm.port());

            jvm.send("hello");

            assertEquals("ECHO hello", jvm.readLine());
            assertTrue(jvm.alive());
            assertEquals("", jvm.death());
        }
    }

    @Test
    void aChildThatDoesNotSayReadyFailsNamingItsFirstLineAndStderr() throws Exception {
        ChildJvm jvm = child("refuse").start();

        String refused = assertThrows(IOException.class, jvm::awaitReady).getMessage();

        assertEquals("scripted refuse did not start: not listening / first complaint\nbad port", refused);
        assertFalse(jvm.alive());
        assertThrows(IllegalStateException.class, jvm::port);
    }

    @Test
    void aDeadChildsDeathIsItsLastStderrLineOrOutOfMemory() throws Exception {
        try (ChildJvm refusing = child("refuse").start(); ChildJvm outOfMemory = child("oom").start()) {
            assertEquals(2, refusing.awaitExit());
            assertEquals(3, outOfMemory.awaitExit());

            assertEquals("bad port", refusing.death());
            assertFalse(refusing.outOfMemory());
            assertEquals("OutOfMemoryError", outOfMemory.death());
            assertTrue(outOfMemory.outOfMemory());
        }
    }

    @Test
    void closeEndsAChildThatStopsAtEndOfInputWithoutAskingIt() throws Exception {
        ChildJvm jvm = child("ready").stopsAtEndOfInput(Duration.ofSeconds(30)).start();
        jvm.awaitReady();

        jvm.close();

        assertFalse(jvm.alive());
        assertEquals(0, jvm.exitStatus());
    }

    @Test
    void closeAsksAChildToStopAndKillsOneThatLingers() throws Exception {
        ChildJvm asked = child("linger").start();
        ChildJvm killed = child("linger").stopsAtEndOfInput(Duration.ofMillis(200)).start();

        asked.close();
        killed.close();

        assertFalse(asked.alive());
        assertFalse(killed.alive());
    }

    @Test
    void aLogHoldsStdoutAndStderrAfterTheChildEnds(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("child.log");
        try (ChildJvm jvm = child("refuse").outputTo(log).start()) {
            assertTrue(jvm.awaitExit(Duration.ofSeconds(30)));
            assertEquals(2, jvm.exitStatus());
        }

        assertEquals(List.of("not listening", "first complaint", "bad port"), Files.readAllLines(log));
    }
}
