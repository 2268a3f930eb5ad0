package io.sluice.examples.spring;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ResponseStatusException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * The directory uploads go to and downloads come from, and the one rule for the names a client
 * may give a file: letters, digits, {@code .}, {@code _} and {@code -}, at most 128, not starting
 * with a dot. So a name is always one entry of this directory: no separator, no {@code ..}, no
 * hidden file (sluice's atomic replace writes its temporary sibling as a hidden file).
 */
@Component
public class Storage {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}");

    private final Path directory; // created at start, never changes

    public Storage(@Value("${sluice.storage:uploads}") Path directory) {
        try {
            this.directory = Files.createDirectories(directory).toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the storage directory " + directory, e);
        }
    }

    /** The storage directory, absolute. */
    public Path directory() {
        return directory;
    }

    /** The file a client's name stands for; 400 Bad Request if the name breaks the rule. */
    public Path resolve(String name) {
        if (!NAME.matcher(name).matches()) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "invalid file name");
        }
        return directory.resolve(name);
    }

    /** As {@link #resolve(String)}, and 404 Not Found unless it is a regular file. */
    public Path existing(String name) {
        Path file = resolve(name);
        if (!Files.isRegularFile(file)) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND);
        }
        return file;
    }
}
