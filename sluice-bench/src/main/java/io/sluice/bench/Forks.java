package io.sluice.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs each fork of a profile in a fresh child JVM (same class path, the chosen {@code java}),
 * its progress shown on this console, and gathers the samples the forks wrote.
 */
public final class Forks {

    /** The forks' heap: fixed, so that GC sizing does not drift between providers. */
    public static final List<String> DEFAULT_JVM_ARGS = List.of("-Xms2g", "-Xmx2g");

    private Forks() {
    }

    /** The {@code java} launcher of this JVM. */
    public static String currentJava() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    public static List<Sample> run(Profile profile, String java, List<String> jvmArgs, Path dir, Path samplesFile)
            throws IOException, InterruptedException {
        Files.deleteIfExists(samplesFile);
        Files.createDirectories(samplesFile.toAbsolutePath().getParent());
        for (int fork = 0; fork < profile.forks(); fork++) {
            List<String> command = new ArrayList<>();
            command.add(java);
            command.addAll(jvmArgs);
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), BenchMain.class.getName(),
                    "worker", "--profile", profile.name(), "--cells", profile.cellSpecs(),
                    "--providers", String.join(",", profile.providers()),
                    "--warmup", Integer.toString(profile.warmupRounds()),
                    "--iterations", Integer.toString(profile.measuredRounds()),
                    "--min-sample-ms", Long.toString(profile.minSampleMillis()),
                    "--fork", Integer.toString(fork), "--dir", dir.toString(),
                    "--samples", samplesFile.toString()));
            Process process = new ProcessBuilder(command).inheritIO().start();
            int exit = process.waitFor();
            if (exit != 0) {
                System.out.println("fork " + (fork + 1) + " exited with " + exit
                        + "; keeping the samples it wrote before that");
            }
        }
        return Sample.read(samplesFile);
    }
}
