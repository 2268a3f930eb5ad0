package io.sluice.bench.phases;

import java.io.IOException;
import java.net.URI;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;

/** A path of a {@link TimedFileSystem}: the default file system's path beneath, so calls on it are timed. */
final class TimedPath implements Path {

    private final TimedFileSystem fileSystem;
    private final Path path;

    TimedPath(TimedFileSystem fileSystem, Path path) {
        this.fileSystem = fileSystem;
        this.path = path;
    }

    /** The default file system's path beneath {@code path}. */
    static Path beneath(Path path) {
        return path instanceof TimedPath timed ? timed.path : path;
    }

    private Path wrap(Path beneath) {
        return beneath == null ? null : new TimedPath(fileSystem, beneath);
    }

    @Override
    public TimedFileSystem getFileSystem() {
        return fileSystem;
    }

    @Override
    public boolean isAbsolute() {
        return path.isAbsolute();
    }

    @Override
    public Path getRoot() {
        return wrap(path.getRoot());
    }

    @Override
    public Path getFileName() {
        return wrap(path.getFileName());
    }

    @Override
    public Path getParent() {
        return wrap(path.getParent());
    }

    @Override
    public int getNameCount() {
        return path.getNameCount();
    }

    @Override
    public Path getName(int index) {
        return wrap(path.getName(index));
    }

    @Override
    public Path subpath(int beginIndex, int endIndex) {
        return wrap(path.subpath(beginIndex, endIndex));
    }

    @Override
    public boolean startsWith(Path other) {
        return path.startsWith(beneath(other));
    }

    @Override
    public boolean endsWith(Path other) {
        return path.endsWith(beneath(other));
    }

    @Override
    public Path normalize() {
        return wrap(path.normalize());
    }

    @Override
    public Path resolve(Path other) {
        return wrap(path.resolve(beneath(other)));
    }

    @Override
    public Path relativize(Path other) {
        return wrap(path.relativize(beneath(other)));
    }

    /** The file beneath: a call through {@link java.io.File} is not timed, and counts as {@code between}. */
    @Override
    public java.io.File toFile() {
        return path.toFile();
    }

    @Override
    public URI toUri() {
        return path.toUri();
    }

    @Override
    public Path toAbsolutePath() {
        return wrap(path.toAbsolutePath());
    }

    @Override
    public Path toRealPath(LinkOption... options) throws IOException {
        return wrap(path.toRealPath(options));
    }

    @Override
    public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers) {
        throw new UnsupportedOperationException("a timed path is not watched");
    }

    @Override
    public int compareTo(Path other) {
        return path.compareTo(beneath(other));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof TimedPath timed && timed.path.equals(path);
    }

    @Override
    public int hashCode() {
        return path.hashCode();
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
