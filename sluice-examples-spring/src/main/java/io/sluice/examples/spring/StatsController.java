package io.sluice.examples.spring;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the load harness measures on the server, only with {@code --sluice.stats=true}:
 * {@code GET /stats} answers "CPU nanoseconds of this process before a full GC, heap used after
 * it, peak RSS bytes, CPU nanoseconds after it" (one line, spaces between), so that a measurement
 * from one call to the next can leave out the CPU the calls' own collections take (the second
 * call's CPU before its GC less the first's after it); {@code POST /stats/peak} starts a new peak RSS
 * ({@code /proc/self/clear_refs}, Linux). The peak RSS is -1 where {@code /proc} says nothing.
 */
@RestController
@ConditionalOnProperty(name = "sluice.stats", havingValue = "true")
class StatsController {

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    @GetMapping("/stats")
    Mono<String> stats() {
        return Mono.fromCallable(() -> {
                    long cpuBeforeGc = OS.getProcessCpuTime();
                    System.gc();
                    long heap = ManagementFactory.getMemoryMXBean()
                            .getHeapMemoryUsage()
                            .getUsed();
                    return cpuBeforeGc + " " + heap + " " + peakRssBytes() + " " + OS.getProcessCpuTime();
                })
                .subscribeOn(Schedulers.boundedElastic());
    }

    @PostMapping("/stats/peak")
    Mono<String> resetPeak() {
        return Mono.fromCallable(() -> {
                    Files.writeString(Path.of("/proc/self/clear_refs"), "5");
                    return "ok";
                })
                .subscribeOn(Schedulers.boundedElastic())
                .onErrorReturn("unsupported");
    }

    private static long peakRssBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }
}
