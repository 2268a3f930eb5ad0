package io.sluice.server;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.nio.file.Path;

/**
 * How one lane moves bytes between the socket and where files are kept. Each method answers the
 * request and completes {@code callback} exactly once; {@code delayMillis} simulates slow storage
 * before the storage is touched. {@code name} is the file's validated name ({@link FileNames}),
 * {@code file} its path in the server's directory: a directory's storage uses the path, a bucket's
 * the name as the object's key.
 */
interface Storage extends AutoCloseable {

    void get(Request request, Response response, Callback callback, String name, Path file, long delayMillis);

    void put(Request request, Response response, Callback callback, String name, Path file, long delayMillis);

    void delete(Request request, Response response, Callback callback, String name, Path file, long delayMillis);

    @Override
    default void close() {}
}
