package io.sluice.bench.phases;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.spi.FileSystemProvider;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/** {@link TimedFileSystem}'s provider: the default provider's calls on the paths beneath, timed. */
final class TimedProvider extends FileSystemProvider {

    /** A call of the provider beneath that may throw. */
    private interface Call<T> {
        T call() throws IOException;
    }

    private final TimedFileSystem fileSystem;
    private final FileSystemProvider provider;
    private final Calls calls;

    TimedProvider(TimedFileSystem fileSystem, FileSystemProvider provider, Calls calls) {
        this.fileSystem = fileSystem;
        this.provider = provider;
        this.calls = calls;
    }

    private <T> T timed(Calls.Kind kind, Call<T> call) throws IOException {
        long began = System.nanoTime();
        try {
            return call.call();
        } finally {
            calls.add(kind, began);
        }
    }

    private static Path beneath(Path path) {
        return TimedPath.beneath(path);
    }

    /**
     * {@code file}: the default file system's scheme, which this stands for, so that code that
     * takes {@link java.io.File}s of such paths does so here too; calls through a {@code File} are
     * not timed.
     */
    @Override
    public String getScheme() {
        return "file";
    }

    @Override
    public FileSystem newFileSystem(URI uri, Map<String, ?> env) {
        throw new UnsupportedOperationException("one timed file system per measurement");
    }

    @Override
    public FileSystem getFileSystem(URI uri) {
        return fileSystem;
    }

    @Override
    public Path getPath(URI uri) {
        return fileSystem.path(provider.getPath(uri));
    }

    @Override
    public FileChannel newFileChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        FileChannel channel = timed(Calls.Kind.OPEN, () -> provider.newFileChannel(beneath(path), options, attrs));
        return new TimedChannel(channel, calls);
    }

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        return newFileChannel(path, options, attrs);
    }

    @Override
    public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
            throws IOException {
        DirectoryStream<Path> entries =
                provider.newDirectoryStream(beneath(dir), entry -> filter.accept(fileSystem.path(entry)));
        return new DirectoryStream<>() {
            @Override
            public Iterator<Path> iterator() {
                Iterator<Path> beneath = entries.iterator();
                return new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return beneath.hasNext();
                    }

                    @Override
                    public Path next() {
                        return fileSystem.path(beneath.next());
                    }
                };
            }

            @Override
            public void close() throws IOException {
                entries.close();
            }
        };
    }

    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
        timed(Calls.Kind.OTHER, () -> {
            provider.createDirectory(beneath(dir), attrs);
            return null;
        });
    }

    @Override
    public void delete(Path path) throws IOException {
        timed(Calls.Kind.OTHER, () -> {
            provider.delete(beneath(path));
            return null;
        });
    }

    @Override
    public void copy(Path source, Path target, CopyOption... options) throws IOException {
        timed(Calls.Kind.IO, () -> {
            provider.copy(beneath(source), beneath(target), options);
            return null;
        });
    }

    @Override
    public void move(Path source, Path target, CopyOption... options) throws IOException {
        timed(Calls.Kind.OTHER, () -> {
            provider.move(beneath(source), beneath(target), options);
            return null;
        });
    }

    @Override
    public boolean isSameFile(Path path, Path path2) throws IOException {
        return timed(Calls.Kind.STAT, () -> provider.isSameFile(beneath(path), beneath(path2)));
    }

    @Override
    public boolean isHidden(Path path) throws IOException {
        return provider.isHidden(beneath(path));
    }

    @Override
    public FileStore getFileStore(Path path) throws IOException {
        return provider.getFileStore(beneath(path));
    }

    @Override
    public void checkAccess(Path path, AccessMode... modes) throws IOException {
        timed(Calls.Kind.STAT, () -> {
            provider.checkAccess(beneath(path), modes);
            return null;
        });
    }

    @Override
    public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
        return provider.getFileAttributeView(beneath(path), type, options);
    }

    @Override
    public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
            throws IOException {
        return timed(Calls.Kind.STAT, () -> provider.readAttributes(beneath(path), type, options));
    }

    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) throws IOException {
        return timed(Calls.Kind.STAT, () -> provider.readAttributes(beneath(path), attributes, options));
    }

    @Override
    public void setAttribute(Path path, String attribute, Object value, LinkOption... options) throws IOException {
        timed(Calls.Kind.OTHER, () -> {
            provider.setAttribute(beneath(path), attribute, value, options);
            return null;
        });
    }
}
