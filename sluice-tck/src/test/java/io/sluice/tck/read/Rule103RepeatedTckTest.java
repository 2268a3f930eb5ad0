package io.sluice.tck.read;

import org.reactivestreams.tck.PublisherVerification;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.nio.ByteBuffer;

/**
 * The TCK's one stochastic test, {@code stochastic_spec103_mustSignalOnMethodsSequentially}
 * (§1.3: signals never overlap; each run subscribes 100 times and requests 10 elements one by one
 * from the subscriber's own {@code onNext}), run {@value #REPETITIONS} times in a row for every
 * finite read fixture in both flavours: 10,000 subscriptions each. No retries: one overlap in any
 * repetition fails the test.
 */
public class Rule103RepeatedTckTest {

    static final int REPETITIONS = 100;

    @DataProvider
    public Object[][] verifications() {
        return new Object[][] {
            {"file read", new FileReadTckTest()},
            {"ranged file read", new RangedFileReadTckTest()},
            {"channel read", new ChannelReadTckTest()},
            {"stream read", new StreamReadTckTest()},
            {"file read (Flow)", new FlowFileReadTckTest()},
            {"ranged file read (Flow)", new FlowRangedFileReadTckTest()},
            {"channel read (Flow)", new FlowChannelReadTckTest()},
            {"stream read (Flow)", new FlowStreamReadTckTest()},
        };
    }

    @Test(dataProvider = "verifications")
    public void signalsNeverOverlapInAnyRepetition_1_3(String name, PublisherVerification<ByteBuffer> verification)
            throws Throwable {
        try {
            for (int repetition = 1; repetition <= REPETITIONS; repetition++) {
                verification.setUp();
                try {
                    verification.stochastic_spec103_mustSignalOnMethodsSequentially();
                } catch (Throwable failure) {
                    throw new AssertionError(
                            name + ": §1.3 failed in repetition " + repetition + " of " + REPETITIONS, failure);
                }
            }
        } finally {
            closeFixture(verification);
        }
    }

    private static void closeFixture(PublisherVerification<ByteBuffer> verification) {
        if (verification instanceof ReadVerification) {
            ((ReadVerification) verification).closeFixture();
        } else {
            ((FlowReadVerification) verification).closeFixture();
        }
    }
}
