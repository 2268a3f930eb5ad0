package io.sluice.lab.s3;

import java.util.Map;
import java.util.TreeMap;

/** The {@code --name value} options of the harness's programs. */
final class Options {

    private Options() {}

    /**
     * {@code defaults} overridden by {@code args}, pairs of {@code --name value}.
     *
     * @throws IllegalArgumentException if an argument is not such a pair
     */
    static Map<String, String> parse(String[] args, Map<String, String> defaults) {
        Map<String, String> options = new TreeMap<>(defaults);
        if (args.length % 2 != 0) {
            throw new IllegalArgumentException(
                    "expected --option value pairs, got an odd count: " + String.join(" ", args));
        }
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || args[i].length() == 2) {
                throw new IllegalArgumentException("expected --option value, got " + args[i]);
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        return options;
    }
}
