package io.sluice.reliability;

import io.sluice.ReactiveFile;
import io.sluice.WriteOptions;
import io.sluice.testkit.OpenFiles;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * File operations take regular files only: a FIFO, a character device, a socket file and a
 * directory are refused for every operation, as source and as target, before anything is opened,
 * with a {@link FileSystemException} naming the path and what it is; the node is left as it was
 * (an atomic replace never renames a file over it), and nothing stays open. A FIFO is the case that
 * matters most: opening one waits for a peer, so an operation that opened it would hold its
 * thread for as long as no peer comes.
 */
@Timeout(
        value = 120,
        threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // an open waiting for a FIFO's peer is the failure
class SpecialFilesTest {

    private static final long SECONDS = 10;

    @TempDir
    Path directory;

    private List<String> baselineFds;
    private Path regular;

    @BeforeEach
    void setUp() throws IOException {
        baselineFds = OpenFiles.targets();
        regular = Files.write(directory.resolve("regular"), "regular".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aFifoIsRefusedByEveryOperationWithoutWaitingForAPeer() throws Exception {
        Path fifo = directory.resolve("fifo");
        run(List.of("mkfifo", fifo.toString()));
        assertRefusedEverywhere(fifo, "a FIFO (named pipe)");
    }

    @Test
    void aSocketFileIsRefusedByEveryOperation() throws Exception {
        Path socket = directory.resolve("socket");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket)); // the socket file stays when the channel closes
        }
        assertRefusedEverywhere(socket, "a socket");
    }

    @Test
    void aCharacterDeviceIsRefusedByEveryOperation() throws Exception {
        Path device = directory.resolve("null");
        String failure = tryRun(List.of("mknod", device.toString(), "c", "1", "3")); // as /dev/null
        if (failure != null) {
            String reason = "cannot create a device node (needs root or CAP_MKNOD): " + failure;
            if ("true".equals(System.getenv("CI"))) {
                fail("CI=true, so device nodes must be tested, but " + reason);
            }
            Assumptions.abort(reason);
        }
        assertRefusedEverywhere(device, "a character device");
    }

    @Test
    void aDirectoryIsRefusedByEveryOperation() throws Exception {
        Path dir = Files.createDirectory(directory.resolve("dir"));
        assertRefusedEverywhere(dir, "Is a directory");
    }

    /** Every operation on {@code node}, as source and as target, fails naming it; the node stays. */
    private void assertRefusedEverywhere(Path node, String what) throws Exception {
        baselineFds =
                OpenFiles.targets(); // after making the node: JDK 25 keeps a descriptor of its own once a UNIX socket
        // was bound
        boolean wasOther =
                Files.readAttributes(node, "*", LinkOption.NOFOLLOW_LINKS).get("isOther") == Boolean.TRUE;
        Map<String, Function<Path, CompletionStage<Long>>> operations = new LinkedHashMap<>();
        operations.put("write", path -> ReactiveFile.of(path).write(Content.publisher(new byte[100], 10, 1)));
        operations.put(
                "append",
                path -> ReactiveFile.of(path).write(Content.publisher(new byte[100], 10, 1), WriteOptions.append()));
        operations.put(
                "sync write",
                path -> ReactiveFile.of(path)
                        .write(
                                Content.publisher(new byte[100], 10, 1),
                                WriteOptions.defaults().withSync()));
        operations.put(
                "atomic write",
                path -> ReactiveFile.of(path)
                        .write(
                                Content.publisher(new byte[100], 10, 1),
                                WriteOptions.defaults().withAtomicReplace()));
        operations.put("copy to it", path -> ReactiveFile.of(regular).copyTo(path));
        operations.put(
                "atomic copy to it",
                path -> ReactiveFile.of(regular)
                        .copyTo(path, WriteOptions.defaults().withAtomicReplace()));
        operations.put("copy from it", path -> ReactiveFile.of(path).copyTo(directory.resolve("copy")));
        operations.put(
                "atomic copy from it",
                path -> ReactiveFile.of(path)
                        .copyTo(
                                directory.resolve("atomic-copy"),
                                WriteOptions.defaults().withAtomicReplace()));

        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, Function<Path, CompletionStage<Long>>> operation : operations.entrySet()) {
            Throwable failure = Stages.failure(operation.getValue().apply(node), SECONDS);
            check(problems, operation.getKey(), failure, node, what);
        }
        RecordingSubscriber reader = new RecordingSubscriber(1);
        ReactiveFile.of(node).read().subscribe(reader);
        check(problems, "read", reader.awaitOneError(), node, what);

        assertEquals(List.of(), problems);
        assertEquals(
                wasOther,
                Files.readAttributes(node, "*", LinkOption.NOFOLLOW_LINKS).get("isOther"),
                "the node was replaced");
        assertEquals(List.of(), Stages.temporaries(directory));
        assertTrue(
                Files.notExists(directory.resolve("copy")) && Files.notExists(directory.resolve("atomic-copy")),
                "a copy created its target from a source it refused");
        OpenFiles.awaitClosed(directory, baselineFds);
    }

    private static void check(List<String> problems, String operation, Throwable failure, Path node, String what) {
        if (!(failure instanceof FileSystemException)
                || !failure.getMessage().contains(node.toString())
                || !failure.getMessage().contains(what)) {
            problems.add(operation + ": " + failure);
        }
    }

    private static void run(List<String> command) {
        String failure = tryRun(command);
        if (failure != null) {
            fail(failure);
        }
    }

    /** Runs a command; returns null on success, or what went wrong. */
    private static String tryRun(List<String> command) {
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            byte[] output;
            try (var out = process.getInputStream()) {
                output = out.readAllBytes();
            }
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return String.join(" ", command) + " did not finish in 30 s";
            }
            return process.exitValue() == 0
                    ? null
                    : String.join(" ", command) + " exited " + process.exitValue() + ": "
                            + new String(output, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            return String.join(" ", command) + ": " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
