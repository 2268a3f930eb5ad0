package io.sluice.spring;

import io.sluice.spring.MultipartForms.Body;
import io.sluice.spring.MultipartForms.Outcome;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import reactor.core.publisher.Hooks;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The oracle: for any form, cut into buffers anywhere (single bytes, inside delimiters), from any
 * of the factories, the parser's events are Spring's {@code PartEventHttpMessageReader}'s on the
 * same body (kinds, headers, filenames, form values, each part's bytes, how the events end), under
 * the default limits and under limits set around the form's own sizes; and every buffer of the
 * body is released exactly once, every slice and copy made of it too.
 */
class MultipartParserPropertyTest {

    /** Spring's parser reports an error it drops (a second failure after the first) on the console. */
    @BeforeContainer
    static void quietDroppedErrors() {
        Hooks.onErrorDropped(dropped -> {});
    }

    @AfterContainer
    static void reportDroppedErrors() {
        Hooks.resetOnErrorDropped();
    }

    @Provide
    Arbitrary<String> factories() {
        return Arbitraries.of(
                "Default heap",
                "Default direct",
                "Netty 4 pooled direct",
                "Netty 4 unpooled heap",
                "Netty 5 pooled direct");
    }

    @Property(tries = 600)
    void theEventsAreSpringsOnAnyFormCutAnywhere(@ForAll("factories") String factoryName, @ForAll long seed)
            throws InterruptedException {
        Random random = new Random(seed);
        Body body = MultipartForms.form(random, 5);
        int[] ends = MultipartForms.cuts(random, body.bytes(), body.boundary());
        assertSameAsSpring(SpringBufferFactories.named(factoryName), body, ends, MultipartForms.defaults());
    }

    @Property(tries = 400)
    void theEventsAndTheLimitExceededAreSpringsUnderLimitsNearTheFormsSizes(
            @ForAll("factories") String factoryName, @ForAll long seed) throws InterruptedException {
        Random random = new Random(seed);
        Body body = MultipartForms.form(random, 4);
        int[] ends = MultipartForms.cuts(random, body.bytes(), body.boundary());
        Outcome unlimited = MultipartForms.outcome(MultipartPublisher.read(
                body.request(MultipartForms.cut(SpringBufferFactories.named("Default heap"), body.bytes(), ends)
                        .flux()),
                MultipartForms.defaults()));
        assertSameAsSpring(SpringBufferFactories.named(factoryName), body, ends, limitsNear(random, unlimited));
    }

    private static String shortened(int[] ends) {
        String all = java.util.Arrays.toString(ends);
        return ends.length + " buffers " + (all.length() > 300 ? all.substring(0, 300) + "..." : all);
    }

    /** Limits at, one below or one above the sizes the form has, or unset. */
    private static MultipartLimits limitsNear(Random random, Outcome form) {
        List<MultipartForms.Part> parts = form.parts();
        int maxParts = random.nextBoolean() ? -1 : Math.max(1, parts.size() + random.nextInt(3) - 1);
        long maxPartSize = -1;
        int maxInMemory = 256 * 1024;
        if (!parts.isEmpty()) {
            MultipartForms.Part part = parts.get(random.nextInt(parts.size()));
            long size = part.value() != null
                    ? part.value().getBytes(StandardCharsets.ISO_8859_1).length
                    : part.content().length() / 2;
            switch (random.nextInt(3)) {
                case 0 -> maxPartSize = Math.max(0, size + random.nextInt(3) - 1);
                case 1 -> maxInMemory = (int) Math.max(0, size + random.nextInt(3) - 1);
                default -> {}
            }
        }
        int maxHeaders = random.nextInt(3) == 0 ? 60 + random.nextInt(120) : 10 * 1024;
        return new MultipartLimits(maxParts, maxHeaders, maxInMemory, maxPartSize, StandardCharsets.UTF_8);
    }

    static void assertSameAsSpring(DataBufferFactory factory, Body body, int[] ends, MultipartLimits limits)
            throws InterruptedException {
        // Spring's reader reads heap buffers: it drops a buffer now and then when it fails, which
        // would show in the pooled allocators the parser's own buffers are counted in
        Outcome expected = MultipartForms.outcome(MultipartForms.spring(
                body.request(MultipartForms.untracked(DefaultDataBufferFactory.sharedInstance, body.bytes(), ends)),
                limits));
        TrackedBuffers ours = MultipartForms.cut(factory, body.bytes(), ends);
        Outcome actual = MultipartForms.outcome(MultipartPublisher.read(body.request(ours.flux()), limits));

        String context = body + " cut at " + shortened(ends) + " under " + limits + "; Spring's error: "
                + expected.message() + "; ours: " + actual.message();
        assertEquals(expected.error(), actual.error(), context);
        if (expected.error() == null) {
            assertEquals(expected.parts(), actual.parts(), context);
        } else {
            // Spring emits a form field when the next part's headers close its window, so a failure
            // there loses it; the parts before are the same
            int springs = expected.parts().size();
            assertTrue(actual.parts().size() == springs || actual.parts().size() == springs + 1, context);
            assertEquals(expected.parts(), actual.parts().subList(0, springs), context);
        }
        assertEquals(List.of(), ours.problems());
        assertEquals(
                Collections.nCopies(ours.createdCount(), 1), ours.releaseCounts(), "each body buffer released once");
        SpringBufferFactories.assertNoLiveAllocations(factory);
    }
}
