package io.sluice.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * What the build that made these classes knew: the commit of its tree, written by this module's
 * pom ({@code git describe}) into {@code build.properties}. The harness jars shade this module, so
 * a run's raw results name the commit they were measured on.
 */
public final class BuildInfo {

    private BuildInfo() {
    }

    /** The commit of the tree this jar was built from, {@code -dirty} if it had changes; {@code unknown} if not known. */
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
