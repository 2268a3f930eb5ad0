package io.sluice;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Run in a child JVM by {@link IoExecutorsTest}: keeps 4 x the expected pool size of tasks busy on
 * {@link IoExecutors#files()} at once and prints the pool's maximum size and how many distinct
 * threads ran them. With an invalid {@code -Dsluice.io.threads} it first writes through a user
 * executor, which must not touch the shared pool, and prints {@code user-executor-ok}.
 */
final class PoolSizeChild {

    private PoolSizeChild() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("user-executor")) {
            Path file = Files.createTempFile("pool-size-child", ".bin");
            try {
                long written = ReactiveFile.of(file)
                        .write(
                                io.sluice.testing.TestPublishers.chunks(new byte[] {1, 2, 3}, 1),
                                WriteOptions.defaults().withExecutor(Runnable::run))
                        .toCompletableFuture()
                        .get(10, TimeUnit.SECONDS);
                System.out.println(written == 3 ? "user-executor-ok" : "user-executor-wrote-" + written);
            } finally {
                Files.deleteIfExists(file);
            }
            return;
        }
        ThreadPoolExecutor pool = (ThreadPoolExecutor) IoExecutors.files();
        int tasks = 4 * pool.getMaximumPoolSize();
        Set<String> threads = ConcurrentHashMap.newKeySet();
        CountDownLatch done = new CountDownLatch(tasks);
        for (int i = 0; i < tasks; i++) {
            pool.execute(() -> {
                threads.add(Thread.currentThread().getName());
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                done.countDown();
            });
        }
        if (!done.await(30, TimeUnit.SECONDS)) {
            System.out.println("timeout");
            return;
        }
        System.out.println("max=" + pool.getMaximumPoolSize() + " threads=" + threads.size());
    }
}
