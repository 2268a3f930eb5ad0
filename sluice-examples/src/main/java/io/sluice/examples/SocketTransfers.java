package io.sluice.examples;

import io.sluice.ByteChannels;
import io.sluice.ReactiveFile;
import io.sluice.ReadOptions;
import io.sluice.WriteOptions;

import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.concurrent.CompletionStage;

// spotless:off (the docs quote this file line for line, a test checks it: the layout is theirs)

/**
 * Example 4: a file into a socket, and a socket into a file. A slow peer slows the producer
 * instead of filling the heap: the socket writer holds at most
 * {@link WriteOptions#maxQueuedBytes()} of unwritten data, and the file is read only as fast as
 * the socket takes it. The other way round, a slow target holds the sending peer back through TCP:
 * the socket is read only as fast as the target takes the bytes, so the sender can be ahead by at
 * most the two socket buffers and the writer's byte cap.
 *
 * <p>Both directions close the socket when they end (after the last byte, on error or on cancel).
 *
 * <p>Run: {@code java io.sluice.examples.SocketTransfers send <host> <port> <file>}.
 */
public final class SocketTransfers {

    private SocketTransfers() {
    }

    /**
     * Sends {@code file} into {@code socket}, then closes the socket.
     *
     * @param file the file to send
     * @param socket a connected socket (blocking or not)
     * @param options demand, byte cap and listener of the socket write
     * @return completes with the number of bytes sent
     */
    public static CompletionStage<Long> sendFile(Path file, SocketChannel socket, WriteOptions options) {
        return ByteChannels.write(socket, ReactiveFile.of(file).read(), options);
    }

    /**
     * Saves everything {@code socket} receives until the peer shuts its output down into
     * {@code file} (created or truncated), then closes the socket.
     *
     * @param socket a connected socket
     * @param file the file to write
     * @param options demand and byte cap of the file write
     * @return completes with the number of bytes saved
     */
    public static CompletionStage<Long> receiveToFile(SocketChannel socket, Path file, WriteOptions options) {
        return ReactiveFile.of(file).write(ByteChannels.publisher(socket, ReadOptions.defaults()), options);
    }

    /**
     * Saves everything {@code socket} receives until the peer shuts its output down into
     * {@code target}, any writable channel (a file channel, a pipe, a throttling decorator), then
     * closes both.
     *
     * @param socket a connected socket
     * @param target the channel to write; the library closes it
     * @param options demand and byte cap of the write
     * @return completes with the number of bytes saved
     */
    public static CompletionStage<Long> receiveToChannel(SocketChannel socket, WritableByteChannel target,
                                                         WriteOptions options) {
        return ByteChannels.write(target, ByteChannels.publisher(socket, ReadOptions.defaults()), options);
    }

    /**
     * Sends one file to a listening peer.
     *
     * @param args {@code send <host> <port> <file>}
     * @throws Exception if the connection fails
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 4 || !args[0].equals("send")) {
            System.err.println("usage: SocketTransfers send <host> <port> <file>");
            System.exit(2);
        }
        SocketChannel socket = SocketChannel.open(new InetSocketAddress(args[1], Integer.parseInt(args[2])));
        long sent = sendFile(Path.of(args[3]), socket, WriteOptions.defaults()).toCompletableFuture().join();
        System.out.println("sent " + sent + " bytes");
    }
}
// spotless:on
