package io.sluice.properties;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Tuple;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/** Item-size sequences around the writer's and reader's boundaries, and the buffers that carry them. */
final class Items {

    /** How an item's bytes are held: the writer must treat every kind the same. */
    enum Kind {
        HEAP,
        DIRECT,
        READ_ONLY,
        WINDOW,
        MIXED
    }

    static final int KIB = 1024;
    /**
     * 8 KiB (a ranged channel read's skip buffer), 64 KiB (a read chunk; a stream write's threshold for
     * writing an item without staging) and 256 KiB (a staging buffer).
     */
    private static final List<Integer> BOUNDARIES = List.of(8 * KIB, 64 * KIB, 256 * KIB);

    private Items() {}

    /**
     * Sequences of item sizes: zero-length and one-byte items, sizes at the boundaries +-2, random
     * lists, the same sorted growing or shrinking, and ramps from one byte to 256 KiB after a run of
     * one-byte items (demand granted for tiny items arrives at the large size).
     */
    static Arbitrary<List<Integer>> sizes() {
        Arbitrary<Integer> boundary = Arbitraries.of(BOUNDARIES)
                .flatMap(edge -> Arbitraries.integers().between(-2, 2).map(offset -> edge + offset));
        Arbitrary<Integer> size = Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.just(0)),
                Tuple.of(3, Arbitraries.just(1)),
                Tuple.of(8, Arbitraries.integers().between(2, 8 * KIB)),
                Tuple.of(3, boundary),
                Tuple.of(2, Arbitraries.integers().between(8 * KIB + 1, 256 * KIB)));
        Arbitrary<List<Integer>> random = size.list().ofMaxSize(40);
        Arbitrary<List<Integer>> growing = random.map(Items::ascending);
        Arbitrary<List<Integer>> shrinking = random.map(list -> {
            List<Integer> sorted = ascending(list);
            Collections.reverse(sorted);
            return sorted;
        });
        Arbitrary<List<Integer>> ramp = Arbitraries.integers()
                .between(0, 200)
                .flatMap(ones -> Arbitraries.integers().between(2, 20).map(steps -> ramp(ones, steps)));
        return Arbitraries.frequencyOf(
                Tuple.of(4, random), Tuple.of(2, growing), Tuple.of(1, shrinking), Tuple.of(2, ramp));
    }

    private static List<Integer> ascending(List<Integer> sizes) {
        List<Integer> sorted = new ArrayList<>(sizes);
        Collections.sort(sorted);
        return sorted;
    }

    /** {@code ones} one-byte items, then {@code steps} sizes growing geometrically from 1 to 256 KiB. */
    private static List<Integer> ramp(int ones, int steps) {
        List<Integer> sizes = new ArrayList<>(Collections.nCopies(ones, 1));
        for (int i = 0; i < steps; i++) {
            sizes.add((int) Math.round(Math.pow(256.0 * KIB, i / (double) (steps - 1))));
        }
        return sizes;
    }

    /** Fresh buffers of these sizes holding pseudo-random bytes from {@code seed}, held as {@code kind} says. */
    static List<ByteBuffer> buffers(List<Integer> sizes, Kind kind, long seed) {
        Random random = new Random(seed);
        List<ByteBuffer> items = new ArrayList<>(sizes.size());
        for (int i = 0; i < sizes.size(); i++) {
            byte[] bytes = new byte[sizes.get(i)];
            random.nextBytes(bytes);
            Kind each = kind == Kind.MIXED ? Kind.values()[i % (Kind.values().length - 1)] : kind;
            items.add(hold(bytes, each));
        }
        return items;
    }

    private static ByteBuffer hold(byte[] bytes, Kind kind) {
        switch (kind) {
            case HEAP:
                return ByteBuffer.wrap(bytes);
            case DIRECT:
                return ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
            case READ_ONLY:
                return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
            case WINDOW: { // position > 0 and limit < capacity in a larger array
                byte[] larger = new byte[bytes.length + 7];
                System.arraycopy(bytes, 0, larger, 3, bytes.length);
                return ByteBuffer.wrap(larger, 3, bytes.length);
            }
            default:
                throw new AssertionError(kind);
        }
    }

    /** The items' bytes, in order, from position to limit (the buffers are left untouched). */
    static byte[] concat(List<ByteBuffer> items) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (ByteBuffer item : items) {
            ByteBuffer copy = item.duplicate();
            byte[] bytes = new byte[copy.remaining()];
            copy.get(bytes);
            all.write(bytes, 0, bytes.length);
        }
        return all.toByteArray();
    }
}
