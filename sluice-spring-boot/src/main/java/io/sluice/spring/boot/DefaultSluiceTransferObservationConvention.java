package io.sluice.spring.boot;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

/**
 * The default convention of the observation of a transfer:
 * <ul>
 *   <li>name {@code sluice.transfer}, contextual name {@code sluice write}, {@code sluice read} or
 *       {@code sluice copy} (a span's name);</li>
 *   <li>low-cardinality keys (tags of the observation's timer, and of the span):
 *       {@code sluice.operation} ({@code write}, {@code read}, {@code copy}) and
 *       {@code sluice.outcome} ({@code completed}, {@code failed}, {@code cancelled});</li>
 *   <li>high-cardinality keys (the span's only): {@code sluice.bytes}, the bytes moved, and
 *       {@code sluice.file}, the file's path (absent for a store of several parts).</li>
 * </ul>
 * A failure is the observation's error, which Micrometer's timer handler tags {@code error}.
 */
public class DefaultSluiceTransferObservationConvention implements SluiceTransferObservationConvention {

    /** The shared instance. */
    public static final DefaultSluiceTransferObservationConvention INSTANCE =
            new DefaultSluiceTransferObservationConvention();

    /** For subclasses and {@link #INSTANCE}. */
    public DefaultSluiceTransferObservationConvention() {}

    @Override
    public String getName() {
        return "sluice.transfer";
    }

    @Override
    public String getContextualName(SluiceTransferContext context) {
        return "sluice " + context.getTransfer().kind().tagValue();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(SluiceTransferContext context) {
        return KeyValues.of(
                KeyValue.of("sluice.operation", context.getTransfer().kind().tagValue()),
                KeyValue.of("sluice.outcome", context.getOutcome()));
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(SluiceTransferContext context) {
        KeyValues values =
                KeyValues.of("sluice.bytes", Long.toString(context.getTransfer().bytes()));
        return context.getTransfer().file() == null
                ? values
                : values.and("sluice.file", context.getTransfer().file().toString());
    }
}
