package io.sluice.lab;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * The commit the build was made from, written by this module's pom ({@code git describe}) into
 * {@code build.properties}: the harness jars shade this module, so raw results name their commit.
 */
public final class BuildInfo {

    private BuildInfo() {
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
