package io.sluice.testing;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/** An executor that queues tasks until the test runs them: deterministic drain tests, no sleeps. */
public final class ManualExecutor implements Executor {

    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();

    @Override
    public synchronized void execute(Runnable task) {
        tasks.add(task);
    }

    /** Runs the oldest queued task; returns false if there was none. */
    public boolean runNext() {
        Runnable task;
        synchronized (this) {
            task = tasks.poll();
        }
        if (task == null) {
            return false;
        }
        task.run();
        return true;
    }

    /** Runs tasks until none are queued (including tasks queued meanwhile). */
    public int runAll() {
        int ran = 0;
        while (runNext()) {
            ran++;
        }
        return ran;
    }

    public synchronized int queued() {
        return tasks.size();
    }
}
