package io.sluice.internal.write;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;

/**
 * The permissions a plain {@code Files.createFile} gives in a directory (0666 less the umask, and
 * any default ACL), learned once per process from a probe file: Java cannot read the umask.
 * Thread-safe; a lost race only probes twice.
 */
final class NewFilePermissions {

    private static volatile Set<PosixFilePermission> learned;

    private NewFilePermissions() {}

    /** The permissions of a freshly created file, probing in {@code directory} the first time. */
    static Set<PosixFilePermission> of(Path directory) throws IOException {
        Set<PosixFilePermission> known = learned;
        if (known != null) {
            return known;
        }
        Path probe = directory.resolve(AtomicTemporaries.newName()); // removable by the cleanup if orphaned
        Files.createFile(probe);
        try {
            known = Set.copyOf(Files.getPosixFilePermissions(probe));
        } finally {
            Files.deleteIfExists(probe);
        }
        learned = known;
        return known;
    }
}
