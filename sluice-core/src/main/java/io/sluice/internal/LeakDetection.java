package io.sluice.internal;

import java.nio.ByteBuffer;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Opt-in leak reports for lent chunks, in the manner of Netty's {@code ResourceLeakDetector}. With
 * {@code -Dsluice.leakDetection=true} each loan records the stack that lent it, and each
 * {@link Loans#touch} the stack and hint of the latest touch; when the collector finds a lent
 * chunk that was never given back, the next loan anywhere in the JVM reports it, naming both: to
 * {@link System.Logger} {@code io.sluice.ChunkPool} at {@code WARNING}, and to every listener
 * added here.
 *
 * <p>Off (the default), {@link #ENABLED} is a constant false: a loan and a touch cost one static
 * final check, which the JIT folds away. On, a loan costs a stack trace, so it is a debugging
 * mode, as Netty's {@code PARANOID} level is.
 *
 * <p>A leak is found by the collector, so it is reported some time after the chunk was dropped,
 * never sooner; a chunk lent through a view a holder keeps alive (a slice of it) is reported once
 * the chunk itself is unreachable, since the loan is the chunk object, not its memory.
 *
 * <p>Threading: any thread; a report runs on the lending thread that finds the leak, so listeners
 * must be fast and must not throw (a listener that throws is logged and skipped).
 */
public final class LeakDetection {

    /** The system property that turns detection on: {@code true}; read once, when loans are first used. */
    public static final String PROPERTY = "sluice.leakDetection";

    /** Whether loans record where they were lent; fixed for the life of the JVM. */
    static final boolean ENABLED = Boolean.parseBoolean(System.getProperty(PROPERTY));

    private static final System.Logger LOG = System.getLogger("io.sluice.ChunkPool");
    private static final CopyOnWriteArrayList<Consumer<Leak>> LISTENERS = new CopyOnWriteArrayList<>(); // any thread

    private LeakDetection() {}

    /**
     * Whether leak detection is on in this JVM.
     *
     * @return the value of {@value #PROPERTY} when loans were first used
     */
    public static boolean enabled() {
        return ENABLED;
    }

    /**
     * Adds a listener that each leak report reaches, after it is logged.
     *
     * @param listener called on the lending thread that finds a leak
     * @return removes the listener
     */
    public static Runnable addListener(Consumer<Leak> listener) {
        LISTENERS.add(listener);
        return () -> LISTENERS.remove(listener);
    }

    /**
     * A lent chunk the collector found unreachable, never given back.
     *
     * @param chunk the chunk as it was when lent ({@code toString()} of the buffer)
     * @param lentAt the stack of the thread that lent it
     * @param lastTouchedAt the stack of the latest touch, its message naming the hint; null if never touched
     */
    public record Leak(String chunk, Throwable lentAt, Throwable lastTouchedAt) {

        /**
         * The report as logged: the chunk, where it was lent and where it was last touched.
         *
         * @return lines of text, one per stack frame
         */
        public String describe() {
            StringBuilder text =
                    new StringBuilder("a lent chunk was never given back and is now garbage: ").append(chunk);
            appendStack(text, lentAt);
            if (lastTouchedAt != null) {
                appendStack(text, lastTouchedAt);
            } else {
                text.append("\nnever touched after it was lent");
            }
            return text.toString();
        }

        private static void appendStack(StringBuilder text, Throwable site) {
            text.append('\n').append(site.getMessage()).append(':');
            for (StackTraceElement frame : site.getStackTrace()) {
                text.append("\n\tat ").append(frame);
            }
        }
    }

    /** Where one loan was lent and last touched. */
    static final class Record {
        final String chunk; // the chunk as lent
        final Throwable lentAt; // the lending thread's stack
        volatile Throwable lastTouch; // any toucher -> the lender that reports; null: never touched

        Record(String chunk, Throwable lentAt) {
            this.chunk = chunk;
            this.lentAt = lentAt;
        }

        void touched(Object hint) {
            lastTouch = new Site("last touched (hint: " + hint + ")");
        }
    }

    /** A stack captured where a chunk was lent or touched; never thrown. */
    private static final class Site extends Throwable {
        private static final long serialVersionUID = 1L;

        Site(String where) {
            super(where, null, false, true);
        }
    }

    static Record record(ByteBuffer chunk) {
        return new Record(chunk.toString(), new Site("lent at"));
    }

    static void report(Record record) {
        Leak leak = new Leak(record.chunk, record.lentAt, record.lastTouch);
        LOG.log(System.Logger.Level.WARNING, leak.describe());
        for (Consumer<Leak> listener : LISTENERS) {
            try {
                listener.accept(leak);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "a leak listener threw; skipped", e);
            }
        }
    }
}
