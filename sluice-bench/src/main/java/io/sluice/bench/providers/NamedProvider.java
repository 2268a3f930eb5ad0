package io.sluice.bench.providers;

import io.sluice.bench.Op;
import io.sluice.bench.Provider;

import java.util.Set;

/** What every provider here shares: its row label and the operations it has rows for. */
abstract class NamedProvider implements Provider {

    /** A peer's {@code -64k} variant: reads and copies only. */
    static final Set<Op> READ_COPY = Set.of(Op.READ, Op.COPY);
    /** A peer without a force option: no durable row. */
    static final Set<Op> NOT_DURABLE = Set.of(Op.WRITE, Op.READ, Op.COPY);

    private final String name;          // the row label
    private final Set<Op> ops;          // the operations it has rows for

    NamedProvider(String name, Set<Op> ops) {
        this.name = name;
        this.ops = Set.copyOf(ops);
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final boolean supports(Op op) {
        return ops.contains(op);
    }
}
