package io.sluice.lab.s3;

import io.sluice.WriteOptions;
import io.sluice.s3.ReactiveObject;
import io.sluice.s3.UploadOptions;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.transfer.s3.S3TransferManager;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * How a client JVM runs one {@link Transfer}: the SDK clients, transfer manager or HTTP client it
 * needs, built once and shared by its concurrent transfers as one application shares its client,
 * and the check that a transfer moved every byte. Every request is signed with the server's
 * credentials: the SDK's and sluice's by the SDK; plain HTTP's headers by the SDK's own V4 signer
 * with the payload unsigned ({@code UNSIGNED-PAYLOAD}, as the SDK sends over HTTPS), so the server
 * checks a signature on every transfer alike and plain HTTP measures the server, not a hash.
 */
final class TransferRun implements AutoCloseable {

    /** One client's part of a sample: its key, and its file (the source of an upload, the target of a download). */
    record Job(String key, Path file, long sizeBytes) {}

    private final Transfer transfer;
    private final S3Endpoint endpoint;
    private final S3AsyncClient client; // multipart on for the SDK's multipart uploads, else off
    private final S3TransferManager manager; // null unless a transfer manager's transfer
    private final HttpClient http; // null unless plain HTTP

    TransferRun(Transfer transfer, S3Endpoint endpoint, SdkTuning tuning) {
        this.transfer = transfer;
        this.endpoint = endpoint;
        if (transfer.tuned()) {
            this.client = endpoint.multipartClient(tuning);
        } else if (transfer.multipartClient()) {
            this.client = endpoint.multipartClient(SdkTuning.SDK_DEFAULTS);
        } else {
            this.client =
                    transfer == Transfer.SLUICE_UPLOAD_UNCHECKED ? endpoint.uncheckedClient() : endpoint.plainClient();
        }
        this.manager = transfer == Transfer.TM_UPLOAD_FILE
                        || transfer == Transfer.TM_UPLOAD_FILE_TUNED
                        || transfer == Transfer.TM_DOWNLOAD_FILE
                ? S3TransferManager.builder().s3Client(client).build()
                : null;
        this.http = transfer.side == Transfer.Side.PLAIN_HTTP
                ? HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                : null;
    }

    /**
     * Sluice's stated bound on what one upload from a bursty source holds in heap:
     * {@code (partsInFlight + 1) * partSizeBytes} of the options it runs with, plus the one item it
     * copies from ({@link BurstyPublisher#ITEM_BYTES}); -1 for the other transfers, which state none.
     */
    long boundBytes() {
        UploadOptions options = UploadOptions.defaults();
        return transfer == Transfer.SLUICE_STREAM
                ? (options.partsInFlight() + 1L) * options.partSizeBytes() + BurstyPublisher.ITEM_BYTES
                : -1;
    }

    /** Starts one client's transfer; completes with the ETag the upload's answer named, or null. */
    CompletableFuture<String> start(Job job) {
        String bucket = endpoint.bucket();
        ReactiveObject object = ReactiveObject.of(client, bucket, job.key());
        return switch (transfer) {
            case SLUICE_UPLOAD, SLUICE_UPLOAD_UNCHECKED ->
                object.upload(job.file(), UploadOptions.defaults())
                        .toCompletableFuture()
                        .thenApply(stored -> stored.eTag());
            case SDK_PUT_FROM_FILE, SDK_MULTIPART_FROM_FILE, SDK_MULTIPART_FROM_FILE_TUNED ->
                client.putObject(
                                request -> request.bucket(bucket).key(job.key()), AsyncRequestBody.fromFile(job.file()))
                        .thenApply(stored -> stored.eTag());
            case TM_UPLOAD_FILE, TM_UPLOAD_FILE_TUNED ->
                manager.uploadFile(upload -> upload.source(job.file())
                                .putObjectRequest(
                                        request -> request.bucket(bucket).key(job.key())))
                        .completionFuture()
                        .thenApply(done -> done.response().eTag());
            case RAW_PUT -> rawPut(job);
            case SLUICE_DOWNLOAD_PLAIN ->
                object.downloadTo(job.file(), WriteOptions.defaults())
                        .toCompletableFuture()
                        .thenApply(bytes -> null);
            case SLUICE_DOWNLOAD ->
                object.downloadTo(job.file()).toCompletableFuture().thenApply(bytes -> null);
            case SDK_TO_FILE ->
                client.getObject(
                                request -> request.bucket(bucket).key(job.key()),
                                AsyncResponseTransformer.toFile(job.file()))
                        .thenApply(response -> null);
            case TM_DOWNLOAD_FILE ->
                manager.downloadFile(download -> download.destination(job.file())
                                .getObjectRequest(
                                        request -> request.bucket(bucket).key(job.key())))
                        .completionFuture()
                        .thenApply(done -> null);
            case RAW_GET -> rawGet(job);
            case SLUICE_STREAM ->
                object.write(new BurstyPublisher(job.sizeBytes()), UploadOptions.defaults())
                        .toCompletableFuture()
                        .thenApply(stored -> stored.eTag());
            case SDK_MULTIPART_FROM_PUBLISHER, SDK_MULTIPART_FROM_PUBLISHER_TUNED ->
                client.putObject(
                                request -> request.bucket(bucket).key(job.key()),
                                AsyncRequestBody.fromPublisher(new BurstyPublisher(job.sizeBytes())))
                        .thenApply(stored -> stored.eTag());
        };
    }

    /**
     * Fails if what {@code job}'s transfer was answered with shows it moved other bytes, without a
     * request: a downloaded file's length, or a stored object's ETag where it is the MD5 of the bytes
     * (stored in one piece) and {@code md5} is known. The checks {@link #verify} makes but cheaply.
     *
     * @throws WrongBytes naming the transfer, the key and what differs
     * @throws IOException if the file cannot be read
     */
    void verifyAnswer(Job job, String answeredETag, String md5) throws IOException {
        if (!transfer.direction.stores()) {
            verify(job, answeredETag, md5); // the file's length: no request
            return;
        }
        String eTag = answeredETag == null ? null : answeredETag.replace("\"", "");
        if (eTag != null && md5 != null && !eTag.contains("-") && !eTag.equals(md5)) {
            throw new WrongBytes(
                    transfer.label + " of " + job.key() + ": answered ETag " + eTag + ", not the source's MD5 " + md5);
        }
    }

    /**
     * Fails unless {@code job} moved every byte: a stored object has the length and the ETag the
     * upload was answered with (and, stored in one piece, the MD5 of the source, {@code md5} if
     * known); a downloaded file has the object's length.
     *
     * @throws WrongBytes naming the transfer, the key and what differs
     * @throws IOException if the file cannot be read
     */
    void verify(Job job, String answeredETag, String md5) throws IOException {
        if (!transfer.direction.stores()) {
            long length = Files.size(job.file());
            if (length != job.sizeBytes()) {
                throw new WrongBytes(transfer.label + " of " + job.key() + ": the file has " + length + " bytes, not "
                        + job.sizeBytes());
            }
            return;
        }
        HeadObjectResponse head = client.headObject(
                        request -> request.bucket(endpoint.bucket()).key(job.key()))
                .join();
        String eTag = head.eTag().replace("\"", "");
        String problem = head.contentLength() != job.sizeBytes()
                ? "has " + head.contentLength() + " bytes, not " + job.sizeBytes()
                : answeredETag != null && !eTag.equals(answeredETag.replace("\"", ""))
                        ? "has ETag " + eTag + ", answered " + answeredETag
                        : md5 != null && !eTag.contains("-") && !eTag.equals(md5)
                                ? "has ETag " + eTag + ", not the source's MD5 " + md5
                                : null;
        if (problem != null) {
            throw new WrongBytes(transfer.label + " of " + job.key() + ": the object " + problem);
        }
    }

    /** A transfer that completed but moved other bytes than the source's: a defect, never a sample. */
    static final class WrongBytes extends IOException {
        WrongBytes(String what) {
            super(what);
        }
    }

    private CompletableFuture<String> rawPut(Job job) {
        try {
            HttpRequest.Builder request =
                    signed(SdkHttpMethod.PUT, job.key()).PUT(HttpRequest.BodyPublishers.ofFile(job.file()));
            return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString())
                    .thenApply(response -> {
                        if (response.statusCode() != 200) {
                            throw new IllegalStateException("raw-put of " + job.key() + ": status "
                                    + response.statusCode() + " " + response.body());
                        }
                        return response.headers().firstValue("ETag").orElse(null);
                    });
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private CompletableFuture<String> rawGet(Job job) {
        return http.sendAsync(
                        signed(SdkHttpMethod.GET, job.key()).GET().build(),
                        HttpResponse.BodyHandlers.ofFile(job.file()))
                .thenApply(response -> {
                    if (response.statusCode() != 200) {
                        throw new IllegalStateException(
                                "raw-get of " + job.key() + ": status " + response.statusCode());
                    }
                    return null;
                });
    }

    /** A request to the object {@code key} with the V4 signature's headers, the payload unsigned. */
    private HttpRequest.Builder signed(SdkHttpMethod method, String key) {
        URI uri = endpoint.uri().resolve("/" + endpoint.bucket() + "/" + key);
        SdkHttpRequest unsigned =
                SdkHttpRequest.builder().method(method).uri(uri).build();
        SignedRequest signed = AwsV4HttpSigner.create()
                .sign(request -> request.identity(
                                AwsCredentialsIdentity.create(S3Endpoint.IDENTITY, S3Endpoint.CREDENTIAL))
                        .request(unsigned)
                        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
                        .putProperty(AwsV4HttpSigner.REGION_NAME, S3Endpoint.REGION.id())
                        .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, false));
        HttpRequest.Builder request = HttpRequest.newBuilder(uri);
        for (Map.Entry<String, List<String>> header : signed.request().headers().entrySet()) {
            if (!header.getKey().equalsIgnoreCase("Host")) { // the JDK client sets it, as signed: 127.0.0.1:PORT
                header.getValue().forEach(value -> request.header(header.getKey(), value));
            }
        }
        return request;
    }

    @Override
    public void close() {
        if (manager != null) {
            manager.close();
        }
        client.close();
    }
}
