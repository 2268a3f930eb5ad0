package io.sluice.bench;

import io.sluice.bench.providers.Providers;
import io.sluice.lab.BuildInfo;
import io.sluice.lab.ChildJvm;
import io.sluice.lab.Load;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs a profile's forks, each in a fresh child JVM (same class path, the chosen {@code java}), or with
 * no forks in this JVM. A fork appends each cell's samples to a CSV file (with {@link Sample#HEADER}
 * if the file is new) as soon as the cell ends: a crash keeps the cells measured before it.
 */
public final class Worker {

    /** The forks' heap: fixed, so that GC sizing does not drift between providers. */
    public static final List<String> DEFAULT_JVM_ARGS = List.of("-Xms2g", "-Xmx2g");

    private Worker() {
    }

    /** Runs every fork of {@code profile} (none: here) into a new {@code samplesFile}; returns its samples. */
    public static List<Sample> forks(Profile profile, String java, List<String> jvmArgs, Path dir, Path samplesFile)
            throws IOException, InterruptedException {
        Files.deleteIfExists(samplesFile);
        if (profile.forks() == 0) {
            return run(profile, 0, dir, samplesFile, System.out::println);
        }
        for (int fork = 0; fork < profile.forks(); fork++) {
            ChildJvm.Spec spec = ChildJvm.main("fork " + (fork + 1), BenchMain.class.getName()).java(java)
                    .options(jvmArgs).inheritIo().args(List.of(
                    "worker", "--profile", profile.name(), "--cells", profile.cellSpecs(),
                    "--providers", String.join(",", profile.providers()),
                    "--warmup", Integer.toString(profile.warmupRounds()),
                    "--iterations", Integer.toString(profile.measuredRounds()),
                    "--min-sample-ms", Long.toString(profile.minSampleMillis()),
                    "--fork", Integer.toString(fork), "--dir", dir.toString(), "--samples", samplesFile.toString()));
            try (ChildJvm child = spec.start()) {
                int exit = child.awaitExit();
                if (exit != 0) {
                    System.out.println("fork " + (fork + 1) + " exited with " + exit
                            + "; keeping the samples it wrote before that");
                }
            }
        }
        return Sample.read(samplesFile);
    }

    /** Runs fork {@code fork} of {@code profile} here; returns its samples. */
    public static List<Sample> run(Profile profile, int fork, Path dir, Path samplesFile,
                                   Consumer<String> progress) throws IOException {
        Files.createDirectories(dir);
        List<Sample> all = new ArrayList<>();
        List<Provider> providers = new ArrayList<>();
        try (Probe probe = new Probe();
             PrintWriter out = new PrintWriter(Files.newBufferedWriter(samplesFile, StandardCharsets.UTF_8,
                     StandardOpenOption.CREATE, StandardOpenOption.APPEND))) {
            if (Files.size(samplesFile) == 0) {
                out.println(Sample.HEADER);
            }
            Sample.Origin origin = new Sample.Origin(BuildInfo.commit(), System.getProperty("java.version"),
                    profile.name());
            Map<String, String> broken = new LinkedHashMap<>(); // provider -> why it could not be created
            for (String name : profile.providers()) {
                try {
                    providers.add(Providers.create(name));
                } catch (RuntimeException | LinkageError e) {
                    // reported as failed in every cell, so the table says why the row is missing
                    broken.put(name, CellRunner.describe(e));
                    progress.accept("provider " + name + " could not be created: " + CellRunner.describe(e));
                }
            }
            CellRunner runner = new CellRunner(dir, origin, probe, profile.minSampleMillis(), progress);
            for (int i = 0; i < profile.cells().size(); i++) {
                Cell cell = profile.cells().get(i);
                progress.accept(String.format("[fork %d, cell %d/%d] %s", fork + 1, i + 1,
                        profile.cells().size(), cell.label()));
                List<Sample> samples = new ArrayList<>();
                broken.forEach((name, why) -> samples.add(new Sample(origin, cell, name, fork, 0, 0, 0, 0, 0, 0, 0,
                        Load.UNKNOWN, "FAILED: could not create the provider: " + why)));
                samples.addAll(runner.run(cell, providers, profile.warmupRounds(), profile.measuredRounds(), fork));
                samples.forEach(sample -> out.println(sample.toCsv()));
                out.flush();
                all.addAll(samples);
            }
            runner.deleteSources();
        } finally {
            for (Provider provider : providers) {
                provider.close();
            }
        }
        return all;
    }
}
