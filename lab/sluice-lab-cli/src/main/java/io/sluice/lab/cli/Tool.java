package io.sluice.lab.cli;

import io.sluice.lab.ChildJvm;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A lab tool as the command line names it: the module whose jar holds it, the main class of its runs
 * and, for a tool whose runs have no {@code report} command of their own, the main class of its report.
 *
 * @param name what the command line calls it
 * @param module the lab module (folder under {@code lab/}) whose {@code target/MODULE.jar} runs it
 * @param main the main class of its runs
 * @param reportMain the main class {@code TOOL report ...} runs; null when {@code main} takes
 *     {@code report} itself
 * @param springBoot whether the jar is a Spring Boot jar, whose classes only Boot's launcher loads
 * @param summary one line for the usage
 */
record Tool(String name, String module, String main, String reportMain, boolean springBoot, String summary) {

    /** Boot's launcher that runs the class {@code -Dloader.main} names from a Boot jar. */
    static final String BOOT_LAUNCHER = "org.springframework.boot.loader.launch.PropertiesLauncher";

    /** Every tool, in the order the usage lists them. */
    static final List<Tool> ALL = List.of(
            new Tool(
                    "bench",
                    "sluice-bench",
                    "io.sluice.bench.BenchMain",
                    null,
                    false,
                    "writes, reads and copies against peers and loops: quick, grid, read, small, demand, phases, stress, report"),
            new Tool(
                    "adaptive",
                    "sluice-bench",
                    "io.sluice.bench.adaptive.ScenarioMain",
                    null,
                    false,
                    "the adaptive-demand scenarios and their model, scenario C among them (report: bench report)"),
            new Tool(
                    "server",
                    "sluice-server",
                    "io.sluice.server.Main",
                    null,
                    false,
                    "the streaming file server (lanes A, B, C); report: the server and WebSocket runs' blocks"),
            new Tool(
                    "load",
                    "sluice-server",
                    "io.sluice.server.load.LoadMain",
                    null,
                    false,
                    "the file server's load harness and smoke gates"),
            new Tool(
                    "fan-out",
                    "sluice-server",
                    "io.sluice.server.ws.load.FanOutLoadMain",
                    null,
                    false,
                    "the WebSocket fan-out's load harness: lanes of slow clients against fan-out-server"),
            new Tool(
                    "fan-out-server",
                    "sluice-server",
                    "io.sluice.server.ws.FanOutMain",
                    null,
                    false,
                    "the WebSocket fan-out server alone (one lane)"),
            new Tool(
                    "spring",
                    "sluice-spring-load",
                    "io.sluice.lab.spring.LoadHarness",
                    "io.sluice.lab.spring.SpringReport",
                    true,
                    "the Spring example against Spring's own transfers"),
            new Tool(
                    "s3",
                    "sluice-s3-load",
                    "io.sluice.lab.s3.S3LoadHarness",
                    "io.sluice.lab.s3.S3Report",
                    false,
                    "sluice-s3 against the AWS SDK's own ways, on S3Proxy"),
            new Tool(
                    "jmh",
                    "sluice-jmh",
                    "io.sluice.jmh.LoansScaling",
                    "io.sluice.jmh.LoansReport",
                    false,
                    "lent-chunk ownership at 1 to 64 threads (JMH)"));

    /** The tool called {@code name}, if there is one. */
    static Optional<Tool> named(String name) {
        return ALL.stream().filter(tool -> tool.name.equals(name)).findFirst();
    }

    /** The jar that runs it, in the lab folder {@code lab}. */
    Path jar(Path lab) {
        return lab.resolve(module).resolve("target").resolve(module + ".jar");
    }

    /** The Maven command that builds its jar, from the repository's root. */
    String buildCommand() {
        return "mvn -q -B -DskipTests -Plab package -pl lab/" + module + " -am";
    }

    /**
     * The child JVM that runs {@code args} with this tool: {@code jvmOptions}, then its jar's class path
     * and the main class of its runs, or of its report when the first argument is {@code report} and the
     * tool has a report class of its own.
     */
    ChildJvm.Spec spec(Path lab, List<String> jvmOptions, List<String> args) {
        boolean report = reportMain != null && !args.isEmpty() && args.get(0).equals("report");
        String mainClass = report ? reportMain : main;
        List<String> programArgs = report ? args.subList(1, args.size()) : args;
        List<String> options = new ArrayList<>(jvmOptions);
        String entry = mainClass;
        if (springBoot) {
            options.add("-Dloader.main=" + mainClass);
            entry = BOOT_LAUNCHER;
        }
        return ChildJvm.classPath(name, jar(lab).toString(), entry)
                .options(options)
                .args(programArgs)
                .inheritIo();
    }
}
