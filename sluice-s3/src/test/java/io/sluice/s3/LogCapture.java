package io.sluice.s3;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * What this module logs through {@link System.Logger} under one logger name, captured as formatted
 * text while open. The JDK routes {@code System.Logger} to {@code java.util.logging}, so a stream
 * handler on the logger of that name sees every record. Reflection, not imports: test sources compile
 * into module {@code io.sluice.s3}, which does not read {@code java.logging}; the tests run on the
 * class path, where the calls are plain public API.
 */
final class LogCapture implements AutoCloseable {

    private final ByteArrayOutputStream text = new ByteArrayOutputStream();
    private final Object logger; // held: java.util.logging keeps loggers only weakly
    private final Object handler;
    private final Class<?> handlerClass;

    private LogCapture(String loggerName) throws ReflectiveOperationException {
        Class<?> loggerClass = Class.forName("java.util.logging.Logger");
        handlerClass = Class.forName("java.util.logging.Handler");
        logger = loggerClass.getMethod("getLogger", String.class).invoke(null, loggerName);
        Object formatter = Class.forName("java.util.logging.SimpleFormatter")
                .getConstructor()
                .newInstance();
        handler = Class.forName("java.util.logging.StreamHandler")
                .getConstructor(java.io.OutputStream.class, Class.forName("java.util.logging.Formatter"))
                .newInstance(text, formatter);
        loggerClass.getMethod("addHandler", handlerClass).invoke(logger, handler);
    }

    /** Starts capturing what is logged under {@code loggerName}. */
    static LogCapture of(String loggerName) {
        try {
            return new LogCapture(loggerName);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("cannot attach a handler to java.util.logging logger " + loggerName, e);
        }
    }

    /** Everything logged so far, formatted (level, message, stack trace). */
    String text() {
        try {
            handler.getClass().getMethod("flush").invoke(handler);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
        return text.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        try {
            logger.getClass().getMethod("removeHandler", handlerClass).invoke(logger, handler);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("cannot detach the capturing handler", e);
        }
    }
}
