package io.sluice.lab.s3;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * One way to move bytes between a file (or a publisher) and an object that the harness measures,
 * labelled as in the raw results. Each is sluice's, one of the SDK's own, or plain HTTP (the JDK's
 * {@code HttpClient}, no SDK: how fast the server takes and gives bytes, its ceiling). Each of the
 * SDK's multipart uploads runs twice: on the SDK's defaults, and {@code -tuned}, on the
 * {@link SdkTuning} the run names. The SDK's downloads have nothing to tune here: its multipart
 * download fetches parts by number, which S3Proxy refuses, and a single GET has no part size. How
 * each runs: {@link TransferRun}.
 */
enum Transfer {
    SLUICE_UPLOAD("sluice-upload", Direction.UPLOAD, Side.SLUICE),
    /** {@code sluice-upload} on a client that calculates checksums only when required: no part carries one. */
    SLUICE_UPLOAD_UNCHECKED("sluice-upload-unchecked", Direction.UPLOAD, Side.SLUICE),
    SDK_PUT_FROM_FILE("sdk-put-fromFile", Direction.UPLOAD, Side.SDK),
    SDK_MULTIPART_FROM_FILE("sdk-multipart-fromFile", Direction.UPLOAD, Side.SDK),
    SDK_MULTIPART_FROM_FILE_TUNED("sdk-multipart-fromFile-tuned", Direction.UPLOAD, Side.SDK),
    TM_UPLOAD_FILE("tm-uploadFile", Direction.UPLOAD, Side.SDK),
    TM_UPLOAD_FILE_TUNED("tm-uploadFile-tuned", Direction.UPLOAD, Side.SDK),
    RAW_PUT("raw-put", Direction.UPLOAD, Side.PLAIN_HTTP),
    SLUICE_DOWNLOAD_PLAIN("sluice-download-plain", Direction.DOWNLOAD, Side.SLUICE),
    SLUICE_DOWNLOAD("sluice-download", Direction.DOWNLOAD, Side.SLUICE),
    SDK_TO_FILE("sdk-toFile", Direction.DOWNLOAD, Side.SDK),
    TM_DOWNLOAD_FILE("tm-downloadFile", Direction.DOWNLOAD, Side.SDK),
    RAW_GET("raw-get", Direction.DOWNLOAD, Side.PLAIN_HTTP),
    SLUICE_STREAM("sluice-stream", Direction.STREAM, Side.SLUICE),
    SDK_MULTIPART_FROM_PUBLISHER("sdk-multipart-fromPublisher", Direction.STREAM, Side.SDK),
    SDK_MULTIPART_FROM_PUBLISHER_TUNED("sdk-multipart-fromPublisher-tuned", Direction.STREAM, Side.SDK);

    /** File to object, object to file, or an unknown-length publisher to object. */
    enum Direction {
        UPLOAD,
        DOWNLOAD,
        STREAM;

        /** Whether the transfer stores an object (which the harness deletes after the sample). */
        boolean stores() {
            return this != DOWNLOAD;
        }
    }

    /** Whose code moves the bytes. */
    enum Side {
        SLUICE,
        SDK,
        PLAIN_HTTP
    }

    final String label; // as in the raw results
    final Direction direction;
    final Side side;

    Transfer(String label, Direction direction, Side side) {
        this.label = label;
        this.direction = direction;
        this.side = side;
    }

    /**
     * The sluice transfer a direction's gate judges. Downloads are judged on the plain download
     * (no temporary file, no {@code fsync}), which writes the file as {@code toFile} does; the atomic,
     * synced download is shown beside it.
     */
    static Transfer judged(Direction direction) {
        return switch (direction) {
            case UPLOAD -> SLUICE_UPLOAD;
            case DOWNLOAD -> SLUICE_DOWNLOAD_PLAIN;
            case STREAM -> SLUICE_STREAM;
        };
    }

    /** Whether this transfer runs on the run's {@link SdkTuning} rather than the SDK's defaults. */
    boolean tuned() {
        return untuned().isPresent();
    }

    /** The transfer this one is the tuned form of, on the SDK's defaults; empty for one that is not tuned. */
    Optional<Transfer> untuned() {
        return switch (this) {
            case SDK_MULTIPART_FROM_FILE_TUNED -> Optional.of(SDK_MULTIPART_FROM_FILE);
            case TM_UPLOAD_FILE_TUNED -> Optional.of(TM_UPLOAD_FILE);
            case SDK_MULTIPART_FROM_PUBLISHER_TUNED -> Optional.of(SDK_MULTIPART_FROM_PUBLISHER);
            default -> Optional.empty();
        };
    }

    /** Whether this transfer uses the SDK's multipart client (its uploads in parts), tuned or not. */
    boolean multipartClient() {
        return this == SDK_MULTIPART_FROM_FILE
                || this == TM_UPLOAD_FILE
                || this == SDK_MULTIPART_FROM_PUBLISHER
                || tuned();
    }

    static Optional<Transfer> byLabel(String label) {
        return Arrays.stream(values())
                .filter(transfer -> transfer.label.equals(label))
                .findFirst();
    }

    /**
     * The transfers {@code labels} names (comma-separated), in this type's order; all of them if
     * it is empty.
     *
     * @throws IllegalArgumentException naming a label that is no transfer's
     */
    static List<Transfer> named(String labels) {
        if (labels.isBlank()) {
            return List.of(values());
        }
        List<String> wanted = List.of(labels.split(","));
        for (String label : wanted) {
            if (byLabel(label).isEmpty()) {
                throw new IllegalArgumentException("no transfer " + label + "; known: "
                        + Arrays.stream(values())
                                .map(transfer -> transfer.label)
                                .toList());
            }
        }
        return Arrays.stream(values())
                .filter(transfer -> wanted.contains(transfer.label))
                .toList();
    }
}
