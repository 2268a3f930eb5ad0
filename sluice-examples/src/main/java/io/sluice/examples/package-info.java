/**
 * Small, runnable interop examples: each class shows how one library or JDK API meets sluice in
 * one call, and is tested against the real library in {@code mvn verify}.
 *
 * <ul>
 *   <li>{@link io.sluice.examples.FileDigests}: SHA-256 of a file with Reactor and with RxJava 3,
 *       and with lent chunks that go back to their pool;</li>
 *   <li>{@link io.sluice.examples.PublisherToFile}: a Reactor {@code Flux} and a Mutiny
 *       {@code Multi} written to a file;</li>
 *   <li>{@link io.sluice.examples.HttpTransfers} with {@link io.sluice.http.FileBodyHandler}:
 *       upload and download with the JDK {@code HttpClient};</li>
 *   <li>{@link io.sluice.examples.SocketTransfers}: a file into a socket and a socket into a file,
 *       with bounded memory against a slow peer;</li>
 *   <li>{@link io.sluice.examples.StreamPipes}: {@code InputStream} to file and file to
 *       {@code OutputStream}.</li>
 * </ul>
 */
package io.sluice.examples;
