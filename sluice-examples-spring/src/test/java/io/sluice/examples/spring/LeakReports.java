package io.sluice.examples.spring;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.AppenderBase;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.LoggerFactory;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Fails a test after which Netty reported a leaked buffer or anyone logged a buffer released
 * twice. Leaks: every Netty leak detector is one of ours, which records its reports instead of
 * only logging them; with {@code -Dio.netty.leakDetection.level=paranoid} (this module's Surefire
 * argLine) every buffer is tracked. Double releases: Netty's {@code IllegalReferenceCountException}
 * in any log event, and Spring's {@code DataBufferUtils.release} debug line for a release that
 * failed (its logger is at DEBUG in the tests' {@code application.properties}).
 *
 * <p>Register it before {@code @SpringBootTest}: its class initializer installs the detector
 * factory, which must happen before Netty's first buffer class is initialized.
 * {@link LeakReportsTest} checks a leak is seen. Public for sluice-examples-s3's tests, which take it
 * from this module's -tests jar.
 *
 * <p>Reports come from any thread (the detector reports on the thread that next allocates, the
 * appender on the logging one) into a concurrent queue; the test thread drains it.
 */
public final class LeakReports implements BeforeEachCallback, AfterEachCallback {

    private static final Queue<String> REPORTS = new ConcurrentLinkedQueue<>(); // any thread -> test thread

    static {
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new RecordingFactory());
    }

    /** Attaches the appender to the root logger, again after Spring Boot has reset Logback. */
    @Override
    public void beforeEach(ExtensionContext context) {
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        if (root.getAppender(DoubleReleases.NAME) == null) {
            DoubleReleases appender = new DoubleReleases();
            appender.setName(DoubleReleases.NAME);
            appender.setContext(root.getLoggerContext());
            appender.start();
            root.addAppender(appender);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        assertEquals(List.of(), drain(), "leaked or double-released buffers");
    }

    /** Collects garbage, lets the detector report what it finds, and takes every report so far. */
    static List<String> drain() throws InterruptedException {
        for (int round = 0; round < 2; round++) {
            collectGarbage();
            // The detector reports leaks it has seen collected when it next tracks a buffer.
            PooledByteBufAllocator.DEFAULT.directBuffer(1).release();
            PooledByteBufAllocator.DEFAULT.heapBuffer(1).release();
        }
        List<String> reports = new ArrayList<>();
        for (String report; (report = REPORTS.poll()) != null; ) {
            reports.add(report);
        }
        return reports;
    }

    /** Returns once a garbage collection has run and its cleared references were enqueued. */
    private static void collectGarbage() throws InterruptedException {
        ReferenceQueue<Object> collected = new ReferenceQueue<>();
        WeakReference<Object> sentinel = new WeakReference<>(new Object(), collected);
        System.gc();
        if (collected.remove(10_000) == null) {
            throw new IllegalStateException("no garbage collection in 10 s: " + sentinel);
        }
    }

    private static final class RecordingFactory extends ResourceLeakDetectorFactory {
        @Override
        @SuppressWarnings("deprecation")
        public <T> ResourceLeakDetector<T> newResourceLeakDetector(
                Class<T> resource, int samplingInterval, long maxActive) {
            return new RecordingDetector<>(resource, samplingInterval);
        }
    }

    private static final class RecordingDetector<T> extends ResourceLeakDetector<T> {
        RecordingDetector(Class<T> resource, int samplingInterval) {
            super(resource, samplingInterval);
        }

        @Override
        protected boolean needReport() {
            return true;
        }

        @Override
        protected void reportTracedLeak(String resourceType, String records) {
            REPORTS.add("LEAK: " + resourceType + records);
            super.reportTracedLeak(resourceType, records);
        }

        @Override
        protected void reportUntracedLeak(String resourceType) {
            REPORTS.add("LEAK: " + resourceType + " (untraced)");
            super.reportUntracedLeak(resourceType);
        }
    }

    private static final class DoubleReleases extends AppenderBase<ILoggingEvent> {
        static final String NAME = "double-releases";

        @Override
        protected void append(ILoggingEvent event) {
            if (event.getFormattedMessage().startsWith("Failed to release") || refCountIn(event.getThrowableProxy())) {
                REPORTS.add(event.getLoggerName() + ": " + event.getFormattedMessage()
                        + (event.getThrowableProxy() == null
                                ? ""
                                : " " + event.getThrowableProxy().getClassName() + ": "
                                        + event.getThrowableProxy().getMessage()));
            }
        }

        private static boolean refCountIn(IThrowableProxy thrown) {
            for (IThrowableProxy t = thrown; t != null; t = t.getCause()) {
                if (t.getClassName().endsWith("IllegalReferenceCountException")) {
                    return true;
                }
                for (IThrowableProxy suppressed : t.getSuppressed()) {
                    if (refCountIn(suppressed)) {
                        return true;
                    }
                }
            }
            return false;
        }
    }
}
