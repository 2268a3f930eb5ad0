package io.sluice.spring;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.core.io.buffer.DataBufferUtils;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Fails a test during which {@link DataBufferUtils#release} failed to release a buffer: a Netty 5
 * buffer closed a second time (a double free), or a pooled buffer whose release threw. Spring
 * swallows such a failure and logs it at debug level only, so this turns that level on for the
 * test (through {@code java.util.logging}, where Spring's logging goes with no other back end on
 * the class path) and records what it logs. A released Netty 4 buffer is skipped by
 * {@code DataBufferUtils.release} without a log: reference counts catch that one.
 */
final class FailedReleaseLog implements BeforeEachCallback, AfterEachCallback {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(FailedReleaseLog.class);
    private static final Logger LOGGER = Logger.getLogger(DataBufferUtils.class.getName());

    @Override
    public void beforeEach(ExtensionContext context) {
        Recorder recorder = new Recorder(LOGGER.getLevel());
        context.getStore(NAMESPACE).put(Recorder.class, recorder);
        LOGGER.setLevel(Level.FINE);
        LOGGER.addHandler(recorder);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Recorder recorder = context.getStore(NAMESPACE).remove(Recorder.class, Recorder.class);
        LOGGER.removeHandler(recorder);
        LOGGER.setLevel(recorder.previous);
        assertEquals(List.of(), recorder.failures(), "DataBufferUtils.release failed to release");
    }

    /** Keeps each record about a failed release, from whichever thread released. */
    private static final class Recorder extends Handler {
        final Level previous;
        private final List<String> failures = new ArrayList<>(); // guarded by this

        Recorder(Level previous) {
            this.previous = previous;
            setLevel(Level.ALL);
        }

        @Override
        public synchronized void publish(LogRecord record) {
            String message = record.getMessage();
            if (message != null && message.startsWith("Failed to release")) {
                failures.add(message + (record.getThrown() == null ? "" : ": " + record.getThrown()));
            }
        }

        synchronized List<String> failures() {
            return List.copyOf(failures);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    }
}
