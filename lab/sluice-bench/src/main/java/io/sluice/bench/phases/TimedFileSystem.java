package io.sluice.bench.phases;

import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.WatchService;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/**
 * The default file system, with every call that reaches the disk timed into {@link Calls}: a stat
 * or access check, an open, a channel's size, its I/O and its close. Code under test is handed
 * {@link #path} forms of its files and runs unchanged: a file channel opened through it is the
 * JDK's, wrapped.
 */
final class TimedFileSystem extends FileSystem {

    private final FileSystem fileSystem = FileSystems.getDefault();
    private final TimedProvider provider;

    TimedFileSystem(Calls calls) {
        this.provider = new TimedProvider(this, fileSystem.provider(), calls);
    }

    /** {@code path} of the default file system, as this one's. */
    Path path(Path path) {
        return new TimedPath(this, TimedPath.beneath(path));
    }

    @Override
    public TimedProvider provider() {
        return provider;
    }

    @Override
    public void close() {
        throw new UnsupportedOperationException("the default file system stays open");
    }

    @Override
    public boolean isOpen() {
        return true;
    }

    @Override
    public boolean isReadOnly() {
        return fileSystem.isReadOnly();
    }

    @Override
    public String getSeparator() {
        return fileSystem.getSeparator();
    }

    @Override
    public Iterable<Path> getRootDirectories() {
        return StreamSupport.stream(fileSystem.getRootDirectories().spliterator(), false)
                .map(this::path)
                .collect(Collectors.toList());
    }

    @Override
    public Iterable<FileStore> getFileStores() {
        return fileSystem.getFileStores();
    }

    @Override
    public Set<String> supportedFileAttributeViews() {
        return fileSystem.supportedFileAttributeViews();
    }

    @Override
    public Path getPath(String first, String... more) {
        return path(fileSystem.getPath(first, more));
    }

    @Override
    public PathMatcher getPathMatcher(String syntaxAndPattern) {
        PathMatcher matcher = fileSystem.getPathMatcher(syntaxAndPattern);
        return path -> matcher.matches(TimedPath.beneath(path));
    }

    @Override
    public UserPrincipalLookupService getUserPrincipalLookupService() {
        return fileSystem.getUserPrincipalLookupService();
    }

    @Override
    public WatchService newWatchService() {
        throw new UnsupportedOperationException("a timed file system is not watched");
    }
}
