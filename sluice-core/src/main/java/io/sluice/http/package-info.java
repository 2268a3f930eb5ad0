/**
 * JDK {@code HttpClient} integration: save a response body through sluice's writer with one call,
 * {@code client.send(request, FileBodyHandler.to(path, options))}. (Uploads need nothing from
 * here: {@code BodyPublishers.fromPublisher(ReactiveFile.of(path).read(), size)}.)
 *
 * <h2>Threading</h2>
 * The client delivers the body on its own threads; the file is written on sluice's file executor
 * (or the options' executor), never on the client's threads.
 *
 * <h2>Backpressure</h2>
 * The client is asked for the next list of buffers only when the writer wants more, so memory
 * stays within the writer's window plus one list.
 *
 * <p>This package needs the {@code java.net.http} module at run time ({@code requires static}):
 * every full JDK has it.
 */
package io.sluice.http;
