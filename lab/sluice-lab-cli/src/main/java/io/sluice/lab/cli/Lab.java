package io.sluice.lab.cli;

import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The lab's one command line: {@code java -jar lab/sluice-lab-cli/target/lab.jar [-J<jvm option>...] TOOL
 * ARGS}. It runs the {@link Tool} from its own module's jar in a JVM of its own, with this JVM's
 * {@code java}, its input and output, and ends with the tool's exit status. {@code -J} options go to the
 * tool's JVM ({@code -J-Xmx2g}); {@code TOOL report ...} regenerates or checks the blocks of the tool's
 * runs as every tool's report does.
 *
 * <p>Why a JVM per tool, not one jar of every tool: their class paths do not mix (Spring Boot's nested jar
 * and its launcher, Jetty 12, Vert.x, the AWS SDK and S3Proxy's Jetty, JMH's generated benchmarks), and
 * each tool's jar is what its pages' commands and its recorded runs name.
 */
public final class Lab {

    private Lab() {}

    public static void main(String[] args) throws Exception {
        System.exit(run(List.of(args), labFolder(), System.out, System.err));
    }

    /**
     * Runs the command line {@code args} against the lab folder {@code lab}; returns the exit status: the
     * tool's, 0 for the usage asked for, 2 for a command line or a jar that is not there.
     */
    static int run(List<String> args, Path lab, PrintStream out, PrintStream err) throws Exception {
        List<String> jvmOptions = new ArrayList<>();
        int next = 0;
        while (next < args.size() && args.get(next).startsWith("-J")) {
            jvmOptions.add(args.get(next).substring(2));
            next++;
        }
        if (next == args.size() || List.of("help", "-h", "--help").contains(args.get(next))) {
            out.print(usage());
            return next == args.size() ? 2 : 0;
        }
        Optional<Tool> named = Tool.named(args.get(next));
        if (named.isEmpty()) {
            err.println("lab: no tool called " + args.get(next));
            err.print(usage());
            return 2;
        }
        Tool tool = named.get();
        if (!Files.isRegularFile(tool.jar(lab))) {
            err.println("lab: " + tool.name() + " runs from " + tool.jar(lab) + ", which is not built; from the "
                    + "repository's root: " + tool.buildCommand());
            return 2;
        }
        return tool.spec(lab, jvmOptions, args.subList(next + 1, args.size()))
                .start()
                .awaitExit();
    }

    /** The command line's help: its form and every tool. */
    static String usage() {
        StringBuilder usage = new StringBuilder("""
                usage: java -jar lab/sluice-lab-cli/target/lab.jar [-J<jvm option>...] TOOL [ARGS]
                       java -jar lab/sluice-lab-cli/target/lab.jar TOOL report --from RUN | --all | --check
                Each tool runs from its module's jar (lab/MODULE/target/MODULE.jar) in a JVM of its own;
                -J options go to that JVM. Tools:
                """);
        for (Tool tool : Tool.ALL) {
            usage.append(String.format("  %-15s %s%n", tool.name(), tool.summary()));
        }
        return usage.toString();
    }

    /** The {@code lab} folder: three levels above this class's jar or classes folder ({@code lab/MODULE/target/X}). */
    static Path labFolder() throws URISyntaxException {
        Path location = Path.of(
                Lab.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return location.toAbsolutePath().getParent().getParent().getParent();
    }
}
