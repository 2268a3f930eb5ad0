package io.sluice.tck.support;

import org.reactivestreams.Subscription;
import org.testng.annotations.Test;

import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

/** The checkers the race tests rely on do catch what they claim to catch. */
public class ProtocolCheckerTest {

    private static final Subscription NOTHING = new Subscription() {
        @Override
        public void request(long n) {}

        @Override
        public void cancel() {}
    };

    @Test
    public void reportsOnNextBeyondDemand_1_1() {
        ProtocolChecker<String> checker = new ProtocolChecker<>();
        checker.onSubscribe(NOTHING);
        checker.request(1);
        checker.onNext("a");
        checker.onNext("b");
        assertEquals(checker.violations().size(), 1);
        assertTrue(
                checker.violations().get(0).startsWith("§1.1"),
                checker.violations().toString());
    }

    @Test
    public void reportsSignalsAfterATerminalSignal_1_7() {
        ProtocolChecker<String> checker = new ProtocolChecker<>();
        checker.onSubscribe(NOTHING);
        checker.request(5);
        checker.onComplete();
        checker.onNext("late");
        checker.onError(new RuntimeException("late"));
        assertEquals(checker.violations().size(), 2, checker.violations().toString());
        assertTrue(
                checker.violations().stream().allMatch(violation -> violation.startsWith("§1.7")),
                checker.violations().toString());
    }

    @Test
    public void reportsSignalsBeforeOnSubscribe_1_9() {
        ProtocolChecker<String> checker = new ProtocolChecker<>();
        checker.onComplete();
        assertTrue(
                checker.violations().get(0).startsWith("§1.9"),
                checker.violations().toString());
    }

    @Test
    public void reportsOverlappingSignals_1_3() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ProtocolChecker<String> checker = new ProtocolChecker<>(item -> {
            if (item.equals("slow")) {
                inside.countDown();
                await(release);
            }
        });
        checker.onSubscribe(NOTHING);
        checker.request(2);
        Thread slow = new Thread(() -> checker.onNext("slow"));
        slow.start();
        assertTrue(inside.await(5, TimeUnit.SECONDS));
        checker.onNext("overlapping");
        release.countDown();
        slow.join(5000);
        assertTrue(
                checker.violations().get(0).startsWith("§1.3"),
                checker.violations().toString());
    }

    @Test
    public void checkedSubscriptionReportsConcurrentCalls_2_7() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CheckedSubscription subscription = new CheckedSubscription(new CheckedSubscription.Calls() {
            @Override
            public void request(long n) {
                inside.countDown();
                await(release);
            }

            @Override
            public void cancel() {}
        });
        Thread requester = new Thread(() -> subscription.request(1));
        requester.start();
        assertTrue(inside.await(5, TimeUnit.SECONDS));
        subscription.cancel();
        release.countDown();
        requester.join(5000);
        assertEquals(subscription.violations().size(), 1);
        assertTrue(
                subscription.violations().get(0).startsWith("§2.7"),
                subscription.violations().toString());
    }

    @Test
    public void checkedSubscriptionAllowsNestedCallsOnOneThreadButNotZeroRequests_3_3_3_9() {
        CheckedSubscription[] self = new CheckedSubscription[1];
        self[0] = new CheckedSubscription(new CheckedSubscription.Calls() {
            @Override
            public void request(long n) {
                if (n == 2) {
                    self[0].request(1); // nested on the same thread: §3.3 recursion, allowed
                }
            }

            @Override
            public void cancel() {}
        });
        self[0].request(2);
        self[0].request(0);
        assertEquals(self[0].violations().size(), 1, self[0].violations().toString());
        assertTrue(self[0].violations().get(0).startsWith("§3.9"));
    }

    @Test
    public void patternCheckReportsTornAndWrongChunks() {
        PatternCheck check = new PatternCheck(4);
        check.accept(ByteBuffer.wrap(new byte[] {Pattern.at(0), Pattern.at(1), Pattern.at(2)}));
        check.accept(ByteBuffer.wrap(new byte[] {0, 0, 0, 0}));
        assertEquals(check.problems().size(), 2, check.problems().toString());
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
