package io.sluice.bench.providers;

import io.sluice.bench.Cell;
import io.sluice.bench.Op;
import io.sluice.bench.Profile;
import io.sluice.bench.Provider;
import io.sluice.bench.Row;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The provider lists and the baseline marks the report goes by. */
class ProvidersTest {

    private static final List<String> LARGE_READ_PEERS =
            List.of("rio-64k", "vertx-64k", "vertx-pipe-64k", "spring-64k");

    private static Set<String> everyListedName() {
        Set<String> names = new LinkedHashSet<>(Providers.comparison());
        names.addAll(Providers.demandScenario());
        names.addAll(Providers.hardBound());
        names.addAll(Providers.readChoices());
        names.addAll(Providers.readChunkSizes());
        names.addAll(Providers.stress());
        return names;
    }

    @Test
    void everyListedProviderHasItsNameAndTheBaselineMarkTheReportUses() {
        for (String name : everyListedName()) {
            try (Provider provider = Providers.create(name)) {
                assertEquals(name, provider.name());
                assertEquals(provider instanceof LoopProvider, Providers.isBaseline(name), name);
            }
        }
        for (String loop : List.of(
                "loop-staged-256k",
                "vt-loop-staged-256k",
                "loop-direct-64k",
                "loop-reused-staged-256k",
                "vt-loop-reused-staged-256k",
                "loop-reused-direct-64k",
                "loop-reused-direct-256k",
                "loop-transfer")) {
            assertTrue(Providers.isBaseline(loop), loop);
        }
        for (String peer : LARGE_READ_PEERS) {
            assertFalse(Providers.isBaseline(peer), peer);
        }
    }

    @Test
    void theLargeReadPeersJoinTheLongProfilesAndTheBestWriteLoopJoinsEveryOne() {
        assertTrue(Providers.comparison().containsAll(LARGE_READ_PEERS));
        assertTrue(Providers.readChoices().containsAll(LARGE_READ_PEERS));
        List<String> quick = Providers.quick();
        for (String peer : LARGE_READ_PEERS) {
            assertFalse(quick.contains(peer), peer);
        }
        List<String> expectedQuick = new ArrayList<>(Providers.comparison());
        expectedQuick.removeAll(LARGE_READ_PEERS);
        expectedQuick.removeAll(List.of("vt-loop-reused-staged-256k", "vt-loop-staged-256k"));
        assertEquals(expectedQuick, quick, "quick is the comparison without the 64 KiB peer rows");
        for (List<String> list : List.of(Providers.comparison(), quick)) {
            assertTrue(list.containsAll(List.of(
                    "loop-reused-staged-256k",
                    "loop-staged-256k",
                    "loop-gather",
                    "loop-reused-direct-64k",
                    "loop-direct-64k",
                    "loop",
                    "loop-fresh-64k",
                    "loop-transfer",
                    "rio",
                    "vertx",
                    "vertx-pipe",
                    "spring")));
        }
    }

    @Test
    void everyProfileThatMeasuresAnOperationHasTheBaselinesOfItsTargetsAndThePooledLoopsBesideThem() {
        for (String name : List.of("quick", "standard", "full", "read", "demand")) {
            Profile profile = Profile.named(name);
            Set<Op> ops = profile.cells().stream().map(Cell::op).collect(Collectors.toSet());
            List<String> providers = profile.providers();
            if (ops.contains(Op.WRITE)) {
                assertTrue(providers.contains("loop-reused-staged-256k"), name);
                assertTrue(providers.contains("loop-staged-256k"), name + " keeps the pooled staged loop");
            }
            if (ops.contains(Op.READ)) {
                assertTrue(providers.contains("loop-reused-direct-64k"), name);
                assertTrue(providers.contains("loop-direct-64k"), name + " keeps the pooled direct loop");
                assertTrue(
                        providers.indexOf("loop-reused-direct-64k") < providers.indexOf("loop-direct-64k"),
                        name + ": the pooled loop is the secondary row");
            }
            if (ops.contains(Op.COPY)) {
                assertTrue(providers.contains("loop-transfer"), name);
            }
            assertTrue(providers.contains("loop"), name + " keeps the 8 KiB heap loop as a secondary row");
        }
    }

    @Test
    void theSmallProfileMeasuresOneAndSixtyFourKibFilesAgainstTheCarefulLoopsOfItsTargets() {
        Profile profile = Profile.named("small");
        assertEquals(18, profile.cells().size());
        for (Op op : List.of(Op.WRITE, Op.READ, Op.COPY)) {
            for (String size : List.of("1K", "64K")) {
                for (int parallelism : List.of(1, 100, 1000)) {
                    assertTrue(
                            profile.cells().contains(Cell.parse(op + ":" + size + ":" + parallelism)),
                            op + " " + size + " x" + parallelism);
                }
            }
        }
        assertEquals(64 * 1024, Cell.parse("READ:64K:1").sizeBytes());
        assertEquals("read 64 KiB x1000", Cell.parse("READ:64K:1000").label());
        assertTrue(
                profile.providers()
                        .containsAll(List.of(
                                "sluice",
                                "sluice-lent",
                                "loop",
                                "loop-reused-staged-256k",
                                "loop-reused-direct-64k",
                                "loop-transfer")),
                profile.providers().toString());
        assertTrue(profile.forks() * profile.measuredRounds() >= Row.MIN_SAMPLES);
        for (String name : profile.providers()) {
            try (Provider provider = Providers.create(name)) {
                assertEquals(name, provider.name());
            }
        }
    }

    @Test
    void chartLegendsFollowTheComparisonOnEveryJdkWithOtherProvidersLast() {
        assertTrue(Providers.legendOrder("sluice") < Providers.legendOrder("rio"));
        assertTrue(Providers.legendOrder("spring-64k") < Providers.legendOrder("loop"));
        assertTrue(Providers.legendOrder("files-copy") < Providers.legendOrder("vt-loop"));
        assertTrue(Providers.legendOrder("vt-loop-staged-256k") < Providers.legendOrder("sluice-owned-16k"));
        assertTrue(Providers.legendOrder("loop-reused-staged-256k") < Providers.legendOrder("loop-staged-256k"));
        assertTrue(Providers.legendOrder("loop-reused-direct-64k") < Providers.legendOrder("loop-direct-64k"));
        assertEquals(Providers.legendOrder("sluice-owned-16k"), Providers.legendOrder("sluice-max-item-1k"));
    }
}
