package io.sluice.tck.support;

import org.testng.IHookCallBack;
import org.testng.IHookable;
import org.testng.ITestResult;
import org.testng.SkipException;

import java.lang.reflect.InvocationTargetException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Fails every test that skips itself, except the TCK's own {@code untested_*} placeholders (rules
 * it cannot check) and the tests named in {@link #ALLOWED} (optional rules a publisher
 * legitimately does not support). The TCK reports a failed optional
 * test, or one its fixture does not support, as a skip: without this, a rule broken by a change
 * would pass the build unseen.
 *
 * <p>Registered for the whole sluice-tck Surefire run in its pom, so {@code mvn verify} enforces
 * it. It runs each test method and, when the method threw a {@link SkipException} it may not
 * throw, throws an {@link AssertionError} in its place (the TCK's reason as its cause): TestNG
 * then reports a failure. (A listener cannot do this later: TestNG 7.3 decides a skip from the
 * exception, and Surefire's reporter hears of the result before any configured listener.)
 */
public final class OnlyUntestedSkips implements IHookable {

    /** §1.11 lets a publisher serve one subscriber: the TCK's multi-subscriber tests then skip. */
    private static final String ONE_SUBSCRIBER = "§1.11: a single-use publisher; a second subscriber gets onError";

    /**
     * The skips allowed, by exact test class (simple name) and method name, each with the spec
     * rule that lets that publisher or subscriber leave the optional test unchecked.
     */
    static final Map<String, String> ALLOWED = allowed(
            List.of("FlattenerPublisherTckTest", "FlowFlattenerPublisherTckTest"),
            List.of(
                    "optional_spec111_maySupportMultiSubscribe",
                    "optional_spec111_registeredSubscribersMustReceiveOnNextOrOnCompleteSignals",
                    "optional_spec111_multicast_mustProduceTheSameElementsInTheSameSequenceToAllOfItsSubscribersWhenRequestingOneByOne",
                    "optional_spec111_multicast_mustProduceTheSameElementsInTheSameSequenceToAllOfItsSubscribersWhenRequestingManyUpfront",
                    "optional_spec111_multicast_mustProduceTheSameElementsInTheSameSequenceToAllOfItsSubscribersWhenRequestingManyUpfrontAndCompleteAsExpected"),
            ONE_SUBSCRIBER);

    @Override
    public void run(IHookCallBack callBack, ITestResult result) {
        callBack.runTestMethod(result);
        Throwable thrown = result.getThrowable();
        if (thrown instanceof InvocationTargetException) {
            thrown = thrown.getCause(); // as the test method threw it
        }
        if (!(thrown instanceof SkipException) || !((SkipException) thrown).isSkip()) {
            return;
        }
        String name = result.getMethod().getMethodName();
        String qualified = result.getTestClass().getRealClass().getSimpleName() + "." + name;
        if (name.startsWith("untested_") || ALLOWED.containsKey(qualified)) {
            return;
        }
        throw new AssertionError(
                name + " skipped, and only the TCK's untested_* placeholders may"
                        + " (a failed optional test is reported as a skip): " + thrown.getMessage(),
                thrown);
    }

    private static Map<String, String> allowed(List<String> classes, List<String> methods, String reason) {
        Map<String, String> allowed = new HashMap<>();
        for (String testClass : classes) {
            for (String method : methods) {
                allowed.put(testClass + "." + method, reason);
            }
        }
        return Map.copyOf(allowed);
    }
}
