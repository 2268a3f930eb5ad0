package io.sluice.reliability;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;

/**
 * What the core logs through {@link System.Logger} under one logger name, captured while open.
 * The JDK routes {@code System.Logger} to {@code java.util.logging}, so a stream handler on the
 * logger of that name sees every record as formatted text (message and the exception's stack
 * trace), and the logger stops writing to the console meanwhile.
 *
 * <p>Reflection, not imports: test sources compile into module {@code io.sluice}, which does not
 * read {@code java.logging} (and must not, for a test); the tests run on the class path, where the
 * reflective calls are plain public API.
 */
final class LogCapture implements AutoCloseable {

    private final ByteArrayOutputStream text = new ByteArrayOutputStream();
    private final Object logger; // held: java.util.logging keeps loggers only weakly
    private final Object handler;
    private final boolean parentHandlers;

    private LogCapture(String loggerName) throws ReflectiveOperationException {
        Class<?> loggerClass = Class.forName("java.util.logging.Logger");
        Class<?> handlerClass = Class.forName("java.util.logging.Handler");
        Class<?> formatterClass = Class.forName("java.util.logging.Formatter");
        logger = loggerClass.getMethod("getLogger", String.class).invoke(null, loggerName);
        Object formatter = Class.forName("java.util.logging.SimpleFormatter")
                .getConstructor()
                .newInstance();
        handler = Class.forName("java.util.logging.StreamHandler")
                .getConstructor(java.io.OutputStream.class, formatterClass)
                .newInstance(text, formatter);
        handlerClass.getMethod("setEncoding", String.class).invoke(handler, StandardCharsets.UTF_8.name());
        parentHandlers = (Boolean) loggerClass.getMethod("getUseParentHandlers").invoke(logger);
        loggerClass.getMethod("addHandler", handlerClass).invoke(logger, handler);
        loggerClass.getMethod("setUseParentHandlers", boolean.class).invoke(logger, false);
    }

    /** Starts capturing what is logged under {@code loggerName}. */
    static LogCapture of(String loggerName) {
        try {
            return new LogCapture(loggerName);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("cannot attach a handler to java.util.logging logger " + loggerName, e);
        }
    }

    /** Everything logged so far, formatted. */
    String text() {
        invoke(handler, "flush");
        return text.toString(StandardCharsets.UTF_8);
    }

    /** How often {@code fragment} occurs in what was logged. */
    int count(String fragment) {
        String all = text();
        int count = 0;
        for (int at = all.indexOf(fragment); at >= 0; at = all.indexOf(fragment, at + fragment.length())) {
            count++;
        }
        return count;
    }

    @Override
    public void close() {
        try {
            Class<?> loggerClass = logger.getClass();
            Class<?> handlerClass = Class.forName("java.util.logging.Handler");
            loggerClass.getMethod("removeHandler", handlerClass).invoke(logger, handler);
            loggerClass.getMethod("setUseParentHandlers", boolean.class).invoke(logger, parentHandlers);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("cannot detach the capturing handler", e);
        }
    }

    private static void invoke(Object target, String method) {
        try {
            Method invoked = target.getClass().getMethod(method);
            invoked.invoke(target);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
