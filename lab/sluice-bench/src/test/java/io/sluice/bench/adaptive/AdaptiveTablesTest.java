package io.sluice.bench.adaptive;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The tables from a small fixture of the three files, whose errors are worked out by hand below. */
class AdaptiveTablesTest {

    @Test
    void tablesComeFromTheFilesWithBothPredictorsErrors(@TempDir Path dir) throws IOException {
        // a-sink-64k: adaptive twice (measured 100, 125; model 105: 5%, 16%; schedule 150: 50%, 20%),
        // unbounded (100 / 100: 0%; 50%), oneByOne (50 / 46: 8%; 200%); b-flow-1k: oneByOne with one
        // 1 KiB item per request (20 MiB in 1 s, 20480 calls: latency-bound; 21: 5%; 40: 100%).
        Files.writeString(
                dir.resolve(ScenarioMain.RUNS_CSV),
                ScenarioMain.RUNS_HEADER_WITHOUT_OTHERS + "\n"
                        + "a-sink-64k,a-sink,65536,\"adaptive\",1,1000,100.00,105.00,150.00,1048576,1048576,1048576,16,16,100,90,0.50,0.60\n"
                        + "a-sink-64k,a-sink,65536,\"adaptive\",2,1000,125.00,105.00,150.00,917504,1048576,1048576,16,16,100,90,1.50,1.60\n"
                        + "a-sink-64k,a-sink,65536,\"unbounded\",1,1000,100.00,100.00,150.00,52428800,50331648,1048576,"
                        + "9223372036854775807,9223372036854775807,1,1,0.70,0.80\n"
                        + "a-sink-64k,a-sink,65536,\"oneByOne\",1,1000,50.00,46.00,150.00,65536,65536,1048576,1,1,800,740,0.90,1.00\n"
                        + "b-flow-1k,b-flow,1024,\"oneByOne\",1,1000,20.00,21.00,40.00,1024,1024,1048576,1,1,20480,21504,2.50,2.60\n");
        Files.writeString(
                dir.resolve(ScenarioMain.WINDOWS_CSV),
                ScenarioMain.WINDOWS_HEADER + "\n"
                        + "a-sink-64k,\"adaptive\",1,measured,2000,true,1024,257,7.0\n"
                        + "a-sink-64k,\"adaptive\",1,model,2000,true,1024,1024,\n"
                        + "a-sink-64k,\"adaptive\",2,measured,2000,true,1024,1024,\n");
        Files.writeString(dir.resolve(ScenarioMain.COSTS_CSV), "cost,value\ndispatch_ns,5015\n");

        Map<String, String> blocks = AdaptiveTables.blocks(dir);

        assertEquals(AdaptiveTables.BLOCKS, blocks.keySet().stream().toList());
        String error = blocks.get("adaptive-model-error");
        assertTrue(error.contains("| all runs | 5 | 5.0% | 4 | 50.0% | 0 | 5 |"), error);
        assertTrue(error.contains("| 1 KiB items | 1 | 5.0% | 1 | 100.0% | 0 | 1 |"), error);
        assertTrue(error.contains("| latency-bound runs | 1 | 5.0% | 1 | 100.0% | 0 | 1 |"), error);
        assertTrue(error.contains("| all but latency-bound runs | 4 | 6.5% | 3 | 50.0% | 0 | 4 |"), error);
        assertTrue(error.contains("median 0.90, 0.50 to 2.50"), error);
        String families = blocks.get("adaptive-families");
        assertTrue(families.contains("| a-sink | 4 | 6.5% | 3 | 50.0% | 0 | 4 |"), families);
        assertTrue(families.contains("| b-flow | 1 | 5.0% | 1 | 100.0% | 0 | 1 |"), families);
        assertTrue(
                blocks.get("adaptive-latency-bound")
                        .contains("| b-flow-1k | oneByOne | 1.0 | 20.0 | 21.0 | 40.0 | 5.0% |"),
                blocks.get("adaptive-latency-bound"));
        assertTrue(
                blocks.get("adaptive-targets")
                        .contains("| a-sink-64k | 112.5% (100.0-125.0%) met | 1.0 MiB (1.0 MiB) met "
                                + "| 50.0 MiB | 1/8 (1/8-1/8) met | 112.5 / 50.0 |"),
                blocks.get("adaptive-targets"));
        assertTrue(
                blocks.get("adaptive-window-response")
                        .contains("| a-sink-64k | adaptive | 2000 ms, fast → slow "
                                + "| 1024 → 257 in 7.0 ms; 1024, unchanged | 1024, unchanged |"),
                blocks.get("adaptive-window-response"));
        assertTrue(
                blocks.get("adaptive-runs")
                        .contains("| a-sink-64k | adaptive | 112.5 (100.0-125.0) | 105.0 | 150.0 "
                                + "| 1.0 MiB / 1.0 MiB | 100 / 90 |"),
                blocks.get("adaptive-runs"));
        assertTrue(blocks.get("adaptive-costs").contains("| dispatch_ns | 5015 |"));
    }

    /**
     * Adaptive at 90 and 100 against unbounded's 100: a mean of 95%, but the interval (90-100%)
     * straddles the 95% bar, so the target is inconclusive, not met; a slow producer's win over
     * oneByOne carries its interval too.
     */
    @Test
    void aTargetIsMetOnlyWhenItsIntervalClearsIt(@TempDir Path dir) throws IOException {
        String rest = ",1048576,1048576,1048576,16,16,";
        Files.writeString(
                dir.resolve(ScenarioMain.RUNS_CSV),
                ScenarioMain.RUNS_HEADER_WITHOUT_OTHERS + "\n"
                        + "c-sink-64k,c-sink,65536,\"adaptive\",1,1000,90.00,100.00,100.00" + rest + "10,10,0.5,0.5\n"
                        + "c-sink-64k,c-sink,65536,\"adaptive\",2,1000,100.00,100.00,100.00" + rest + "20,20,0.5,0.5\n"
                        + "c-sink-64k,c-sink,65536,\"unbounded\",1,1000,100.00,100.00,100.00" + rest + "1,1,0.5,0.5\n"
                        + "c-sink-64k,c-sink,65536,\"oneByOne\",1,1000,50.00,50.00,100.00" + rest + "100,100,0.5,0.5\n"
                        + "d-slow-64k,slow-producer,65536,\"adaptive\",1,1000,40.00,40.00,40.00" + rest
                        + "10,10,0.5,0.5\n"
                        + "d-slow-64k,slow-producer,65536,\"adaptive\",2,1000,44.00,40.00,40.00" + rest
                        + "10,10,0.5,0.5\n"
                        + "d-slow-64k,slow-producer,65536,\"unbounded\",1,1000,42.00,40.00,40.00" + rest
                        + "1,1,0.5,0.5\n"
                        + "d-slow-64k,slow-producer,65536,\"oneByOne\",1,1000,30.00,30.00,40.00" + rest
                        + "100,100,0.5,0.5\n");
        Files.writeString(dir.resolve(ScenarioMain.WINDOWS_CSV), ScenarioMain.WINDOWS_HEADER + "\n");
        Files.writeString(dir.resolve(ScenarioMain.COSTS_CSV), "cost,value\n");

        String targets = AdaptiveTables.blocks(dir).get("adaptive-targets");

        assertTrue(targets.contains("| c-sink-64k | 95.0% (90.0-100.0%) inconclusive |"), targets);
        assertTrue(targets.contains("| 1/7 (1/10-1/5) inconclusive | 95.0 / 50.0 |"), targets);
        assertTrue(targets.contains("| d-slow-64k | 100.0% (95.2-104.8%) met |"), targets);
        assertTrue(targets.contains("| 42.0 / 30.0 = 1.40 (1.33-1.47) met |"), targets);
    }

    @Test
    void aFolderWithoutTheRunsSaysSo(@TempDir Path dir) throws IOException {
        assertThrows(UncheckedIOException.class, () -> AdaptiveTables.blocks(dir));
        Files.writeString(dir.resolve(ScenarioMain.RUNS_CSV), "scenario,strategy,measured_mib_s\n");
        assertThrows(IllegalArgumentException.class, () -> AdaptiveTables.blocks(dir), "an older format is refused");
    }

    @Test
    void aRunIsQuietOnlyIfEveryScenarioRunRecordedLittleOtherWork(@TempDir Path dir) throws IOException {
        String row =
                "a-sink-64k,a-sink,65536,\"adaptive\",1,1000,100.00,105.00,150.00,1048576,1048576,1048576,16,16,100,90,0.50,0.60";
        Files.writeString(
                dir.resolve(ScenarioMain.RUNS_CSV),
                ScenarioMain.RUNS_HEADER + "\n" + row + ",0.040\n" + row + ",0.120\n");
        assertTrue(AdaptiveTables.quietness(dir).quiet());

        Files.writeString(
                dir.resolve(ScenarioMain.RUNS_CSV),
                ScenarioMain.RUNS_HEADER + "\n" + row + ",0.040\n" + row + ",0.400\n");
        assertEquals(
                "NOISY: other work kept at most 40% of the cores busy during a scenario run (1 of 2 scenario runs above"
                        + " 25%)",
                AdaptiveTables.quietness(dir).inWords());

        Files.writeString(
                dir.resolve(ScenarioMain.RUNS_CSV), ScenarioMain.RUNS_HEADER_WITHOUT_OTHERS + "\n" + row + "\n");
        assertEquals(
                "machine unknown (other work's share of the cores not recorded for 1 of 1 scenario runs)",
                AdaptiveTables.quietness(dir).inWords());
    }
}
