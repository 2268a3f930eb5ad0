package io.sluice.demand;

/** {@code unbounded}: requests {@code Long.MAX_VALUE} once (§3.17); no bound on memory. */
final class UnboundedDemand implements DemandStrategy {

    static final UnboundedDemand INSTANCE = new UnboundedDemand();

    private UnboundedDemand() {}

    @Override
    public DemandController newController() {
        return new DemandController() {
            @Override
            public long nextRequest(DemandState state) {
                return state.requestedItems() == 0 ? Long.MAX_VALUE : 0;
            }

            @Override
            public long windowItems() {
                return Long.MAX_VALUE;
            }

            @Override
            public String describe() {
                return "unbounded";
            }
        };
    }

    @Override
    public String toString() {
        return "unbounded";
    }
}
