package io.sluice.lab;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Properties;

/**
 * The commit the build was made from, written by this module's pom ({@code git describe}) into
 * {@code build.properties}: the harness jars shade this module, so raw results name their commit.
 */
public final class BuildInfo {

    /** The flag that lets a harness run from a jar no commit holds. */
    public static final String ALLOW_DIRTY = "--allow-dirty";

    private BuildInfo() {}

    /**
     * Refuses to start a run that no commit could reproduce: one from a jar built from a tree with uncommitted changes
     * ({@code -dirty}) or from outside git ({@code unknown}). {@code allowDirty} (a harness's {@code --allow-dirty})
     * lets a trial run go on; its rows still name the commit as it is, so a page that quotes the run shows it.
     *
     * @throws IllegalStateException naming the commit and the way out, unless {@code allowDirty}
     */
    public static void requireCommitted(boolean allowDirty) {
        requireCommitted(commit(), allowDirty);
    }

    /**
     * {@link #requireCommitted(boolean)} for a harness whose arguments may hold the bare flag {@code --allow-dirty}.
     *
     * @return {@code args} without that flag
     */
    public static String[] requireCommitted(String[] args) {
        requireCommitted(Arrays.asList(args).contains(ALLOW_DIRTY));
        return Arrays.stream(args).filter(arg -> !arg.equals(ALLOW_DIRTY)).toArray(String[]::new);
    }

    static void requireCommitted(String commit, boolean allowDirty) {
        if (!allowDirty && (commit.endsWith("-dirty") || commit.equals("unknown"))) {
            throw new IllegalStateException(
                    "this jar was built from "
                            + (commit.equals("unknown")
                                    ? "outside git"
                                    : "a tree with uncommitted changes (" + commit + ")")
                            + ": a run from it cannot be traced to a commit. "
                            + "Commit, rebuild and run again, or pass --allow-dirty for a trial run that will not be published");
        }
    }

    /** The commit, {@code -dirty} if the tree had changes; {@code unknown} if not known. */
    public static String commit() {
        try (InputStream in = BuildInfo.class.getResourceAsStream("build.properties")) {
            Properties build = new Properties();
            if (in != null) {
                build.load(in);
            }
            return build.getProperty("commit", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
