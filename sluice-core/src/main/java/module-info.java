/**
 * sluice: files and byte channels as Reactive Streams and {@link java.util.concurrent.Flow}
 * publishers and writers, with bounded, adaptive write demand.
 *
 * <p>Exports the API packages only; {@code io.sluice.internal} stays hidden, but for sluice's own
 * Spring and S3 modules, which run on the one drain idiom ({@code SerialDrain}) and, for S3's
 * uploads, on the one operation stage ({@code OperationFuture}).
 */
module io.sluice {
    requires transitive org.reactivestreams;
    requires static jdk.jfr;
    requires static java.net.http; // io.sluice.http only: HttpClient body handlers

    exports io.sluice;
    exports io.sluice.demand;
    exports io.sluice.http;
    exports io.sluice.internal to
            io.sluice.spring, // the Spring module's automatic name
            io.sluice.s3;
}
