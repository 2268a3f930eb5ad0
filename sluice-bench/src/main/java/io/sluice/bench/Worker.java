package io.sluice.bench;

import io.sluice.bench.providers.Providers;

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
 * One fork: runs every cell of a profile in this JVM and appends each cell's samples to a CSV file
 * (with {@link Sample#HEADER} if the file is new) as soon as the cell ends: a crash keeps the cells
 * measured before it.
 */
public final class Worker {

    private Worker() {
    }

    /** Runs {@code profile} here; returns every sample. */
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
            Sample.Origin origin = new Sample.Origin(RunInfo.builtCommit(), System.getProperty("java.version"),
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
