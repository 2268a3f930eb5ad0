/**
 * sluice for S3-compatible object storage, on the AWS SDK v2's {@code S3AsyncClient}.
 *
 * <p>Exports the API package only; {@code io.sluice.s3.internal} stays hidden.
 */
module io.sluice.s3 {
    requires transitive io.sluice;
    requires transitive software.amazon.awssdk.services.s3;
    requires software.amazon.awssdk.core;

    exports io.sluice.s3;
}
