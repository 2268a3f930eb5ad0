package io.sluice.lab.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LabTest {

    static final Pattern MAIN = Pattern.compile("public static void main\\(String\\[] \\w+\\)");

    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    Path lab;

    private int run(String... args) throws Exception {
        return Lab.run(
                List.of(args),
                lab,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void everyToolNamesAModuleOfTheLabAndMainClassesItsSourcesHold() throws Exception {
        Path realLab = Lab.labFolder();
        assertTrue(Files.isRegularFile(realLab.resolve("sluice-lab-cli").resolve("pom.xml")), realLab.toString());
        for (Tool tool : Tool.ALL) {
            Path module = realLab.resolve(tool.module());
            assertTrue(Files.isRegularFile(module.resolve("pom.xml")), tool.name() + ": no module " + module);
            for (String mainClass :
                    tool.reportMain() == null ? List.of(tool.main()) : List.of(tool.main(), tool.reportMain())) {
                Path source = module.resolve("src/main/java").resolve(mainClass.replace('.', '/') + ".java");
                assertTrue(MAIN.matcher(Files.readString(source)).find(), tool.name() + ": " + source + " has no main");
            }
        }
    }

    @Test
    void aToolRunsFromItsModulesJarWithTheJvmOptionsGivenAsJ() {
        Tool bench = Tool.named("bench").orElseThrow();

        List<String> command = bench.spec(lab, List.of("-Xms2g", "-Xmx2g"), List.of("quick", "--forks", "1"))
                .command();

        assertEquals(
                List.of(
                        "-Xms2g",
                        "-Xmx2g",
                        "-cp",
                        lab.resolve("sluice-bench/target/sluice-bench.jar").toString(),
                        "io.sluice.bench.BenchMain",
                        "quick",
                        "--forks",
                        "1"),
                command.subList(1, command.size()));
    }

    @Test
    void reportRunsTheToolsReportClassAndABootJarsClassRunsThroughBootsLauncher() {
        Tool spring = Tool.named("spring").orElseThrow();

        List<String> report =
                spring.spec(lab, List.of(), List.of("report", "--check")).command();
        List<String> run =
                spring.spec(lab, List.of(), List.of("--sizes", "1MiB")).command();

        assertEquals(
                List.of(
                        "-Dloader.main=io.sluice.lab.spring.SpringReport",
                        "-cp",
                        lab.resolve("sluice-spring-load/target/sluice-spring-load.jar")
                                .toString(),
                        Tool.BOOT_LAUNCHER,
                        "--check"),
                report.subList(1, report.size()));
        assertEquals("-Dloader.main=io.sluice.lab.spring.LoadHarness", run.get(1));
        assertEquals(List.of("--sizes", "1MiB"), run.subList(run.size() - 2, run.size()));
    }

    @Test
    void aToolThatTakesReportItselfIsGivenIt() {
        List<String> command = Tool.named("server")
                .orElseThrow()
                .spec(lab, List.of(), List.of("report", "--all"))
                .command();

        assertEquals(
                List.of("io.sluice.server.Main", "report", "--all"),
                command.subList(command.size() - 3, command.size()));
    }

    @Test
    void anUnknownToolIsRefusedWithTheListOfTools() throws Exception {
        assertEquals(2, run("benhc", "quick"));

        String message = err.toString(StandardCharsets.UTF_8);
        assertTrue(message.startsWith("lab: no tool called benhc"), message);
        for (Tool tool : Tool.ALL) {
            assertTrue(message.contains("  " + tool.name() + " "), tool.name() + " not listed: " + message);
        }
    }

    @Test
    void noToolPrintsTheUsageAndFailsButHelpSucceeds() throws Exception {
        assertEquals(2, run());
        assertEquals(0, run("-J-Xmx1g", "help"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("usage: java -jar lab/sluice-lab-cli/target/lab.jar"));
    }

    @Test
    void aToolWhoseJarIsNotBuiltIsRefusedWithTheCommandThatBuildsIt() throws Exception {
        assertEquals(2, run("s3", "--sizes", "1MiB"));

        String message = err.toString(StandardCharsets.UTF_8);
        assertTrue(
                message.contains(lab.resolve("sluice-s3-load/target/sluice-s3-load.jar") + ", which is not built"),
                message);
        assertTrue(message.contains("mvn -q -B -DskipTests -Plab package -pl lab/sluice-s3-load -am"), message);
    }

    @Test
    void theToolsExitStatusIsTheCommandLines() throws Exception {
        Path classes = Path.of(ExitWith.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        Path jar = lab.resolve("sluice-jmh/target/sluice-jmh.jar");
        Files.createDirectories(jar.getParent());
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        try (JarOutputStream stream = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            String entry = ExitWith.class.getName().replace('.', '/') + ".class";
            stream.putNextEntry(new JarEntry(entry));
            stream.write(Files.readAllBytes(classes.resolve(entry)));
            stream.closeEntry();
        }
        Tool jmh = Tool.named("jmh").orElseThrow();
        Tool fake = new Tool("jmh", jmh.module(), ExitWith.class.getName(), ExitWith.class.getName(), false, "");

        int status = fake.spec(lab, List.of(), List.of("report", "7")).start().awaitExit();

        assertEquals(7, status);
    }

    /** A tool that ends with the status its first argument names. */
    public static final class ExitWith {
        public static void main(String[] args) {
            System.exit(Integer.parseInt(args[0]));
        }
    }
}
