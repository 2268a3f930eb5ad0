package io.sluice.spring;

import org.junit.jupiter.api.Test;
import org.testng.ITestResult;
import org.testng.TestListenerAdapter;
import org.testng.TestNG;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs {@link ReadFluxVerification}, the TCK for the {@code Flux<DataBuffer>} read, through TestNG's
 * API, so this module keeps one test engine. Every TCK test must pass; the only skips allowed are the
 * TCK's {@code untested_*} placeholders, since the TCK reports a failed optional test as a skip.
 */
class ReadTckTest {

    @Test
    void theReadFluxPassesTheReactiveStreamsTck() {
        TestListenerAdapter results = new TestListenerAdapter();
        TestNG testng = new TestNG(false);
        testng.setUseDefaultListeners(false);
        testng.setVerbose(0);
        testng.setTestClasses(new Class<?>[] {ReadFluxVerification.class});
        testng.addListener(results);

        testng.run();

        assertEquals(List.of(), describe(results.getFailedTests()), "failed TCK tests");
        List<String> skipped = describe(results.getSkippedTests()).stream()
                .filter(name -> !name.startsWith("untested_"))
                .toList();
        assertEquals(List.of(), skipped, "skipped TCK tests other than untested_* (a failed optional test is a skip)");
        assertTrue(
                results.getPassedTests().size() > 30,
                "the TCK ran: " + results.getPassedTests().size() + " passed");
    }

    private static List<String> describe(List<ITestResult> results) {
        return results.stream()
                .map(result -> result.getName() + (result.getThrowable() == null ? "" : ": " + result.getThrowable()))
                .toList();
    }
}
