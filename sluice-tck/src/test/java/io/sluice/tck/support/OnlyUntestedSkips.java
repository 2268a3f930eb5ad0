package io.sluice.tck.support;

import org.testng.IHookCallBack;
import org.testng.IHookable;
import org.testng.ITestResult;
import org.testng.SkipException;

import java.lang.reflect.InvocationTargetException;
import java.util.Map;

/**
 * Fails every test that skips itself, except the TCK's own {@code untested_*} placeholders (rules
 * it cannot check) and the tests named in {@link #ALLOWED}. The TCK reports a failed optional
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

    /**
     * Skips that are allowed, by exact test method name, each with the spec rule that lets our
     * publishers or subscribers leave it unchecked. Empty: every optional test runs and passes.
     */
    static final Map<String, String> ALLOWED = Map.of();

    @Override
    public void run(IHookCallBack callBack, ITestResult result) {
        callBack.runTestMethod(result);
        Throwable thrown = result.getThrowable();
        if (thrown instanceof InvocationTargetException) {
            thrown = thrown.getCause();                           // as the test method threw it
        }
        if (!(thrown instanceof SkipException) || !((SkipException) thrown).isSkip()) {
            return;
        }
        String name = result.getMethod().getMethodName();
        if (name.startsWith("untested_") || ALLOWED.containsKey(name)) {
            return;
        }
        throw new AssertionError(name + " skipped, and only the TCK's untested_* placeholders may"
                + " (a failed optional test is reported as a skip): " + thrown.getMessage(), thrown);
    }
}
