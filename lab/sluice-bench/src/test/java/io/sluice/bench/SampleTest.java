package io.sluice.bench;

import io.sluice.lab.Load;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SampleTest {

    @TempDir
    Path dir;

    @Test
    void samplesSurviveTheCsvRoundTrip() {
        Sample sample = new Sample(
                new Sample.Origin("9e62422-dirty", "17.0.15", "quick"),
                Cell.parse("COPY:10M:100"),
                "vertx-pipe",
                2,
                3,
                123_456_789_012L,
                5_000_000_001L,
                7,
                8,
                9,
                10,
                new Load(1.5, 2.25, 0.125),
                "OK");

        assertEquals(sample, Sample.parse(sample.toCsv()));
        assertTrue(
                sample.toCsv()
                        .startsWith("9e62422-dirty,17.0.15,quick,COPY:10485760:100,vertx-pipe,2,3,1048576000,"
                                + "123.456789012,5.000000001,"),
                sample.toCsv());
    }

    @Test
    void aFailureWithCommasAndAnUnknownLoadRoundTrip() {
        Sample failed = new Sample(
                Sample.Origin.UNKNOWN,
                Cell.parse("READ:1K:1"),
                "rio",
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                Load.UNKNOWN,
                "FAILED: a, b\nc");

        Sample parsed = Sample.parse(failed.toCsv());

        assertEquals("FAILED: a; b c", parsed.status());
        assertTrue(Double.isNaN(parsed.load().othersBusy()));
        assertEquals(failed.cell(), parsed.cell());
    }

    @Test
    void aFileHasTheHeaderAndTheEarlierHeaderlessFormatStillReads() throws Exception {
        Path file = dir.resolve("samples.csv");
        Sample sample = new Sample(
                Sample.Origin.UNKNOWN,
                Cell.parse("WRITE:1M:1"),
                "loop",
                0,
                2,
                3_039_120,
                3_975_903,
                1_123_678,
                98_455_032,
                1024,
                17,
                new Load(0.1, 0.2, 0.01),
                "OK");
        Files.writeString(
                file,
                Sample.HEADER + "\n" + sample.toCsv() + "\n"
                        + "0,WRITE,1048576,1,loop,2,3039120,3975903,1123678,98455032,1024,17,OK\n");

        List<Sample> samples = Sample.read(file);

        assertEquals(2, samples.size());
        assertEquals(sample, samples.get(0));
        assertEquals(
                new Sample(
                        Sample.Origin.UNKNOWN,
                        sample.cell(),
                        "loop",
                        0,
                        2,
                        3_039_120,
                        3_975_903,
                        1_123_678,
                        98_455_032,
                        1024,
                        17,
                        Load.UNKNOWN,
                        "OK"),
                samples.get(1));
    }
}
