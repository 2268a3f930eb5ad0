package io.sluice.lab;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * The child {@link ChildJvmTest} starts; its first argument says what it does: {@code ready} prints a readiness
 * line then answers each stdin line with {@code ECHO line} until stdin closes; {@code refuse} prints another first
 * line and a complaint on stderr, then exits with status 2; {@code oom} exits with status 3; {@code linger} ignores
 * its stdin and sleeps.
 */
public final class ScriptedChild {

    private ScriptedChild() {
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "ready" -> {
                System.out.println(ChildJvm.READY + "4711 pid=1");
                System.out.flush();
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    System.out.println("ECHO " + line);
                    System.out.flush();
                }
            }
            case "refuse" -> {
                System.out.println("not listening");
                System.err.println("first complaint");
                System.err.println("bad port");
                System.exit(2);
            }
            case "oom" -> System.exit(3);
            case "linger" -> Thread.sleep(60_000);
            default -> throw new IllegalArgumentException(args[0]);
        }
    }
}
