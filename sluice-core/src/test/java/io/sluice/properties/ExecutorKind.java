package io.sluice.properties;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The executors an operation may run on: none named (the library's pools), direct, a thread, a pool, virtual threads. */
enum ExecutorKind {
    DEFAULT,
    DIRECT,
    SINGLE,
    POOL_OF_4,
    VIRTUAL;

    private static final Method VIRTUAL_FACTORY = virtualFactory();

    /** The kinds this JDK can run: {@link #VIRTUAL} only where virtual threads exist (JDK 21+). */
    static List<ExecutorKind> available() {
        List<ExecutorKind> kinds = new ArrayList<>(List.of(values()));
        if (VIRTUAL_FACTORY == null) {
            kinds.remove(VIRTUAL);
        }
        return kinds;
    }

    /** A new executor of this kind, or {@code null} for {@link #DEFAULT} (no {@code withExecutor}). */
    Executor create() {
        switch (this) {
            case DEFAULT:
                return null;
            case DIRECT:
                return Runnable::run;
            case SINGLE:
                return Executors.newSingleThreadExecutor();
            case POOL_OF_4:
                return Executors.newFixedThreadPool(4);
            case VIRTUAL:
                try {
                    return (Executor) VIRTUAL_FACTORY.invoke(null);
                } catch (ReflectiveOperationException e) {
                    throw new AssertionError(e);
                }
            default:
                throw new AssertionError(this);
        }
    }

    /**
     * Shuts down and awaits an executor made by {@link #create()}: nothing of the operations it ran
     * can run afterwards. Returns whether that could be made sure (not for the library's pools).
     */
    static boolean quiesce(Executor executor) throws InterruptedException {
        if (executor instanceof ExecutorService) {
            ExecutorService service = (ExecutorService) executor;
            service.shutdown();
            assertTrue(service.awaitTermination(30, TimeUnit.SECONDS), "the operation's executor never quiesced");
            return true;
        }
        return executor != null; // direct: everything ran on the callers' threads
    }

    private static Method virtualFactory() {
        try {
            return Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
        } catch (NoSuchMethodException beforeJdk21) {
            return null;
        }
    }
}
