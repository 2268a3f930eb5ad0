package io.sluice.bench;

import io.sluice.bench.providers.Providers;
import io.sluice.lab.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.imageio.ImageIO;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CI smoke pass: every provider runs every operation it supports once, at tiny sizes, with
 * its output verified, in seconds. It proves the benchmark still runs; it measures nothing.
 */
class BenchSmokeTest {

    @TempDir
    Path dir;

    @Test
    void everyProviderRunsEveryOperationItSupportsWithVerifiedOutput() throws Exception {
        Profile smoke = Profile.named("smoke");
        List<String> names = new ArrayList<>(Providers.comparison());
        names.addAll(Providers.demandScenario());
        smoke = new Profile(
                smoke.name(),
                smoke.cells(),
                names.stream().distinct().collect(Collectors.toList()),
                smoke.forks(),
                smoke.warmupRounds(),
                smoke.measuredRounds(),
                smoke.minSampleMillis());
        List<String> log = new ArrayList<>();
        List<Sample> samples = Worker.run(smoke, 0, dir.resolve("files"), dir.resolve("samples.csv"), log::add);

        Set<String> expected = new TreeSet<>();
        for (Cell cell : smoke.cells()) {
            for (String name : smoke.providers()) {
                try (Provider provider = Providers.create(name)) {
                    if (provider.supports(cell.op())) {
                        expected.add(cell.label() + " " + name);
                    }
                }
            }
        }
        Set<String> ran = samples.stream()
                .map(sample -> sample.cell().label() + " " + sample.provider())
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(expected, ran, "every provider x supported operation must produce a sample");
        List<String> failed = samples.stream()
                .filter(sample -> !sample.ok())
                .map(sample -> sample.cell().label() + " " + sample.provider() + ": " + sample.status())
                .collect(Collectors.toList());
        assertEquals(List.of(), failed, "failed samples; progress was:\n" + String.join("\n", log));
        assertEquals(samples.size(), Sample.read(dir.resolve("samples.csv")).size(), "every sample reaches the CSV");
        try (var files = Files.list(dir.resolve("files"))) {
            assertEquals(List.of(), files.collect(Collectors.toList()), "outputs and sources are deleted");
        }

        Report report = new Report(samples);
        List<Path> charts = BarChart.draw(report, dir.resolve("images"), "smoke-", "");
        assertEquals(3 * 4, charts.size(), "speed, CPU and allocation charts for each of the 4 operations");
        for (Path chart : charts) {
            BufferedImage image = ImageIO.read(chart.toFile());
            assertTrue(image != null && image.getWidth() > 200, chart + " must be a readable PNG");
        }
        assertTrue(
                report.markdown().contains("| Size | Count | Parallelism | Provider | AVG ms | STDDEV ms | STDERR ms"));
        assertTrue(report.compact().contains("write 16 KiB x2"), report.compact());
    }

    @Test
    void stressChildrenRunWithTheSmallHeapAndVerifyTheirOutput() throws Exception {
        List<Stress.Result> results =
                Stress.run(Providers.stress(), 4L * 1024 * 1024, ChildJvm.java().toString(), dir, 120);
        for (Stress.Result result : results) {
            assertEquals("completed", result.outcome(), result.provider() + " with " + Stress.HEAP);
            assertTrue(result.peakHeapMiB() > 0 && result.peakHeapMiB() <= 64, result.line());
        }
    }

    @Test
    void aChildFindsNoFileAnEarlierChildLeftAndLeavesNoneBehind() throws Exception {
        // What a child that died of OutOfMemoryError leaves: its file, longer than the next child writes. Rio's
        // writer does not truncate, so a child writing over it would leave it at that length and fail the check.
        Files.write(dir.resolve("stress-rio-0.out"), new byte[128 * 1024]);

        List<Stress.Result> results =
                Stress.threads(List.of("rio"), ChildJvm.java().toString(), dir, 120);

        assertEquals("completed", results.get(0).outcome(), results.get(0).threadsLine());
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(
                    List.of("stress-rio-0.out", "stress-rio.log"),
                    left.map(path -> path.getFileName().toString()).sorted().toList(),
                    "the child's files went with its folder");
        }
    }

    @Test
    void aThousandConcurrentSluiceWritesAddNoMoreThreadsThanTheIoPool() throws Exception {
        List<Stress.Result> results =
                Stress.threads(List.of("sluice"), ChildJvm.java().toString(), dir, 120);
        Stress.Result sluice = results.get(0);
        assertEquals("completed", sluice.outcome());
        int poolSize = Math.max(4, 2 * Runtime.getRuntime().availableProcessors()); // IoExecutors' default
        int timer = 1; // sluice-timer: watches opens in flight for ones that are stuck
        assertTrue(sluice.peakThreads() - sluice.threadsBefore() <= poolSize + timer, sluice.threadsLine());
    }
}
