package io.sluice.examples.spring;

import io.sluice.examples.spring.FilesClient.Stored;
import io.sluice.testkit.Tmpfs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Uploads into a storage directory that is a 512 KiB tmpfs (needs root, as CI runs; elsewhere
 * skipped with the reason, except under {@code CI=true}): an upload larger than the disk fails
 * without leaking or double-releasing a buffer ({@link LeakReports}), sluice's leaves nothing
 * behind, and the server goes on storing what fits.
 */
@ExtendWith(LeakReports.class)
@SpringBootTest(classes = FilesApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Import(FinishedExchanges.class)
class DiskFullTest {

    static final Path STORAGE = TestFiles.directory("tmpfs");

    private static Tmpfs disk;

    @BeforeAll
    static void mount() {
        disk = Tmpfs.mount(STORAGE, 512 * 1024);
    }

    @AfterAll
    static void unmount() {
        if (disk != null) {
            disk.close();
        }
    }

    @DynamicPropertySource
    static void storage(DynamicPropertyRegistry properties) {
        properties.add("sluice.storage", STORAGE::toString);
    }

    @LocalServerPort
    int port;

    @Autowired
    FinishedExchanges exchanges;

    @ParameterizedTest
    @ValueSource(strings = {"spring", "sluice"})
    void anUploadLargerThanTheDiskFailsAndTheServerKeepsServing(String variant) throws Exception {
        FilesClient client = FilesClient.of(URI.create("http://127.0.0.1:" + port));
        Path tooLarge = TestFiles.random(2 * 1024 * 1024, 11);

        assertNotEquals(200, statusOf(() -> client.uploadRaw(variant, "raw", tooLarge)));
        exchanges.await("PUT /" + variant + "/raw/raw");
        assertNotEquals(200, statusOf(() -> client.uploadPart(variant, "part", tooLarge)));
        exchanges.await("POST /" + variant + "/files/part");

        if (variant.equals("sluice")) {
            assertEquals(List.of(), entries(), "what a failed atomic upload left");
        }
        Files.deleteIfExists(STORAGE.resolve("raw")); // Spring's variant keeps what fitted
        Files.deleteIfExists(STORAGE.resolve("part"));

        Path fits = TestFiles.random(64 * 1024, 12);
        assertEquals(new Stored(200, "65536"), client.uploadRaw(variant, "fits", fits));
        assertEquals(FilesApplicationTest.sha256(fits), FilesApplicationTest.sha256(STORAGE.resolve("fits")));
        Files.delete(STORAGE.resolve("fits"));
    }

    private interface Upload {
        Stored send() throws IOException, InterruptedException;
    }

    /** The upload's status, or -1 if the server closed the connection before answering. */
    private static int statusOf(Upload upload) throws InterruptedException {
        try {
            return upload.send().status();
        } catch (IOException closedWhileSending) {
            return -1;
        }
    }

    private static List<String> entries() throws IOException {
        try (Stream<Path> files = Files.list(STORAGE)) {
            return files.map(file -> file.getFileName().toString()).sorted().toList();
        }
    }
}
