package io.sluice.examples.s3;

import io.sluice.s3.ReactiveObject;
import io.sluice.s3.UploadOptions;
import io.sluice.s3.UploadResult;
import org.reactivestreams.Publisher;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.CompletionStage;

// spotless:off (the docs quote this file line for line, a test checks it: the layout is theirs)

/**
 * docs/USING.md's S3 snippet (section "S3-compatible object storage"), compiled: the lines between
 * the markers are quoted on the page, and {@code UsingS3Test} checks the quote and runs them.
 */
final class UsingS3 {

    private UsingS3() {
    }

    /** What the snippet starts: the upload of {@code body}, then the download of what it stored. */
    record Stages(CompletionStage<UploadResult> stored, CompletionStage<Long> downloaded) {
    }

    /** Stores {@code body} as uploads/photo.jpg through {@code client}, then downloads it into {@code dir}. */
    static Stages run(S3AsyncClient client, Publisher<ByteBuffer> body, Path dir) {
        // USING begin
        ReactiveObject object = ReactiveObject.of(client, "uploads", "photo.jpg");
        CompletionStage<UploadResult> stored = object.write(body, UploadOptions.defaults());   // unknown length, in parts
        CompletionStage<Long> downloaded = stored.thenCompose(
                upload -> object.downloadTo(dir.resolve("photo.jpg")));                      // atomic, ETag checked
        // USING end
        return new Stages(stored, downloaded);
    }
}
// spotless:on
