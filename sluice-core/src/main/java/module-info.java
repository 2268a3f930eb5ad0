/**
 * sluice: files and byte channels as Reactive Streams and {@link java.util.concurrent.Flow}
 * publishers and writers, with bounded, adaptive write demand.
 *
 * <p>Exports the API packages only; {@code io.sluice.internal} stays hidden.
 */
module io.sluice {
    requires transitive org.reactivestreams;
    requires static jdk.jfr;
    requires static java.net.http;      // io.sluice.http only: HttpClient body handlers

    exports io.sluice;
    exports io.sluice.demand;
    exports io.sluice.http;
}
