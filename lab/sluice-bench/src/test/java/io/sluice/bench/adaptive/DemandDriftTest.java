package io.sluice.bench.adaptive;

import io.sluice.demand.Demand;
import io.sluice.demand.DemandStrategy;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The paper's literal trigger drifts; ours (W3) does not. */
class DemandDriftTest {

    @Test
    void literalRuleOutstandingDemandGrowsByShiftEveryCycle() {
        // amount and shift held constant (min = max) so the drift is the trigger's alone
        ScriptedWrite write = new ScriptedWrite(new PaperLiteralDemand(100, 100, 100, 2, 2, 2));
        assertEquals(100, write.ask());
        List<Long> outstandingAfterRefill = new ArrayList<>();
        for (int i = 0; i < 98 * 50; i++) {
            write.receive();
            write.writeOne(); // a fast channel: the queue stays empty
            if (write.ask() > 0) {
                outstandingAfterRefill.add(write.outstandingItems());
            }
        }
        assertEquals(50, outstandingAfterRefill.size(), "one request per amount - shift = 98 receipts");
        for (int k = 1; k <= 50; k++) {
            assertEquals(100 + 2L * k, outstandingAfterRefill.get(k - 1), "outstanding after refill " + k);
        }
    }

    @Test
    void literalRuleWithThePapersConstantsOutrunsAnyWindow() {
        ScriptedWrite write = new ScriptedWrite(new PaperLiteralDemand());
        write.ask();
        long peak = 0;
        for (int i = 0; i < 100_000; i++) {
            write.receive();
            write.writeOne();
            write.ask();
            peak = Math.max(peak, write.outstandingItems());
        }
        // the amount doubles at every eligible point while the queue is empty, and outstanding
        // demand follows it: half of everything received so far, where a window would stay constant
        assertTrue(peak > 50_000, "outstanding demand after 100 000 receipts: " + peak);
    }

    @Test
    void oursHoldsAtMostItsWindowWhateverTheChannelDoes() {
        for (DemandStrategy strategy : List.of(
                Demand.adaptive(),
                Demand.fixed(100, 2),
                Demand.oneByOne(),
                Demand.adaptive().withShift(2, 1, 3).withFactors(4, 4).withMinBatchBytes(0))) {
            ScriptedWrite write = new ScriptedWrite(strategy);
            write.ask();
            long largestWindow = write.controller().windowItems();
            long refills = 0;
            for (int step = 0; step < 200_000; step++) {
                boolean slowPhase = (step / 20_000) % 2 == 1; // alternate a fast and a slow channel
                if (write.outstandingItems() > 0) {
                    write.receive();
                }
                int writes = slowPhase ? (step % 4 == 0 ? 1 : 0) : 2;
                for (int w = 0; w < writes && write.queuedItems() > 0; w++) {
                    write.writeOne();
                }
                long requested = write.ask();
                if (write.held() == 0) {
                    throw new AssertionError(strategy + " stalled: nothing queued, nothing outstanding");
                }
                long window = write.controller().windowItems();
                largestWindow = Math.max(largestWindow, window);
                if (requested > 0) { // W3: a request keeps held within the window
                    refills++;
                    assertTrue(
                            write.held() <= window,
                            strategy + " holds " + write.held() + " > window " + window + " after a request at step "
                                    + step + " (" + write.controller().describe() + ")");
                }
                assertTrue(write.held() <= largestWindow, strategy + " holds " + write.held() + " at step " + step);
            }
            assertTrue(refills > 100, strategy + " refilled only " + refills + " times");
        }
    }

    @Test
    void fixedOutstandingStaysConstantWhereTheLiteralRuleDrifts() {
        ScriptedWrite write = new ScriptedWrite(Demand.fixed(100, 2));
        write.ask();
        for (int i = 0; i < 98 * 50; i++) {
            write.receive();
            write.writeOne();
            if (write.ask() > 0) {
                assertEquals(102, write.outstandingItems(), "amount + shift, every cycle");
            }
        }
    }

    @Test
    void literalRuleRefusesBoundsItCannotKeep() {
        IllegalArgumentException amount =
                assertThrows(IllegalArgumentException.class, () -> new PaperLiteralDemand(2, 3, 100, 1, 1, 1));
        assertTrue(amount.getMessage().contains("amount must satisfy"), amount.getMessage());
        IllegalArgumentException shift =
                assertThrows(IllegalArgumentException.class, () -> new PaperLiteralDemand(3, 3, 3, 3, 1, 3));
        assertTrue(shift.getMessage().contains("initial < amount"), shift.getMessage());
    }
}
