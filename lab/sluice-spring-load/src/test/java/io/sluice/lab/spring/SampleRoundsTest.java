package io.sluice.lab.spring;

import io.sluice.lab.SampleOrder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A sample of a small file repeats it until the clients have moved the sample's bytes, and its rates count every round. */
class SampleRoundsTest {

    private static final long MIB = 1L << 20;

    @Test
    void smallFilesRepeatUntilTheClientsTogetherMoveTheSamplesBytes() {
        assertEquals(256, SampleOrder.rounds(256 * MIB, MIB, 1));
        assertEquals(26, SampleOrder.rounds(256 * MIB, MIB, 10), "rounded up: 10 clients x 26 MiB >= 256 MiB");
        assertEquals(3, SampleOrder.rounds(256 * MIB, 100 * MIB, 1));
        assertEquals(1, SampleOrder.rounds(256 * MIB, 100 * MIB, 10));
        assertEquals(1, SampleOrder.rounds(256 * MIB, 1024 * MIB, 1));
        assertEquals(1, SampleOrder.rounds(0, MIB, 1), "no sample bytes: each client moves the file once");
        assertEquals(1, SampleOrder.rounds(256 * MIB, 0, 1), "an empty file moves no bytes however often");
    }

    @Test
    void cpuPerGibCountsTheBytesOfEveryRound(@TempDir Path folder) throws IOException {
        Path csv = folder.resolve("uploads.csv");
        Files.write(
                csv,
                List.of(Sample.HEADER, "abc,17,sluice-raw,1048576,2,0,1.000000,512.000,1.000,1,1,0.00,0.00,0.000,256"));

        Sample sample = Sample.read(csv).get(0);

        assertEquals(256, sample.rounds());
        assertEquals(
                2.0, sample.cpuSecondsPerGiB(), 1e-9, "2 clients x 256 rounds x 1 MiB = half a GiB for one CPU second");
    }

    @Test
    void aRunFromBeforeRoundsReadsAsOneRoundPerSample(@TempDir Path folder) throws IOException {
        Path csv = folder.resolve("uploads.csv");
        Files.write(
                csv,
                List.of(
                        Sample.HEADER_ONE_ROUND,
                        "abc,17,sluice-raw,1073741824,1,0,1.000000,1024.000,1.000,1,1,0.00,0.00,0.000"));

        Sample sample = Sample.read(csv).get(0);

        assertEquals(1, sample.rounds());
        assertEquals(1.0, sample.cpuSecondsPerGiB(), 1e-9);
    }

    @Test
    void anUnknownHeaderIsRefused(@TempDir Path folder) throws IOException {
        Path csv = folder.resolve("uploads.csv");
        Files.write(csv, List.of(Sample.HEADER + ",extra"));

        assertThrows(IOException.class, () -> Sample.read(csv));
    }
}
