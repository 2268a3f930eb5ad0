package io.sluice.examples.s3;

import io.sluice.s3.ReactiveObject;
import io.sluice.s3.UploadOptions;
import io.sluice.s3.UploadResult;
import io.sluice.spring.DataBufferFiles;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.nio.ByteBuffer;
import java.util.regex.Pattern;

/**
 * Objects in one bucket over HTTP: {@code PUT /objects/{key}} streams the request body into the
 * object as it arrives, {@code GET /objects/{key}} streams it back.
 *
 * <p><b>Upload.</b> The body's {@link DataBuffer}s go to {@link ReactiveObject#write} through
 * {@link DataBufferFiles#writeWith}: each is lent to the upload as a view of its bytes and released
 * once the upload has copied them into a part, or dropped them; never buffered whole, never released
 * twice. The upload holds at most {@code (partsInFlight + 1) x partSize} bytes of parts, and reads
 * the body only as fast as parts leave. A {@code Content-Length} is declared to the upload, so a
 * body that ends short (a client gone mid-upload) fails it as surely as the server's read error
 * does. A failed or cancelled upload is aborted before the response ends: no parts, no object.
 * Answered with what was stored, as JSON: {@code {"bytes":..,"eTag":"..","parts":..}}.
 *
 * <p><b>Download.</b> A {@code HeadObject} gives the length (404 if there is no such object), then
 * {@link ReactiveObject#read()} streams the bytes as the client takes them; the object's ETag is
 * checked as they pass when it is an MD5. The length and the bytes come from two requests: an
 * object replaced between them is sent under the length of the one it replaced.
 *
 * <p>Keys are one path segment of letters, digits, {@code .}, {@code _} and {@code -}: an example's
 * rule, not S3's, which allows almost any string.
 */
@RestController
class ObjectController {

    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,255}");

    private final S3AsyncClient s3;
    private final String bucket;
    private final UploadOptions options;

    ObjectController(S3AsyncClient s3, S3Properties properties) {
        this.s3 = s3;
        this.bucket = properties.bucket();
        this.options = UploadOptions.defaults()
                .withPartSize(Math.toIntExact(properties.partSize().toBytes()));
    }

    @PutMapping("/objects/{key}")
    Mono<Stored> upload(@PathVariable String key, ServerHttpRequest request) {
        ReactiveObject object = object(key);
        long declared = request.getHeaders().getContentLength();
        UploadOptions upload = declared >= 0 ? options.withContentLength(declared) : options;
        return DataBufferFiles.writeWith(request.getBody(), bytes -> object.write(bytes, upload))
                .map(Stored::of);
    }

    @GetMapping("/objects/{key}")
    Mono<ResponseEntity<Flux<ByteBuffer>>> download(@PathVariable String key) {
        ReactiveObject object = object(key);
        return Mono.fromFuture(() -> s3.headObject(head -> head.bucket(bucket).key(key)))
                .onErrorMap(ObjectController::missing, missing -> new ResponseStatusException(HttpStatus.NOT_FOUND))
                .map(head -> ResponseEntity.ok()
                        .contentType(MediaType.APPLICATION_OCTET_STREAM)
                        .contentLength(head.contentLength())
                        .body(Flux.from(object.read())));
    }

    private ReactiveObject object(String key) {
        if (!KEY.matcher(key).matches()) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "invalid key");
        }
        return ReactiveObject.of(s3, bucket, key);
    }

    /** A HEAD has no body to carry the error's code, so a missing key is S3's 404, typed or not. */
    private static boolean missing(Throwable error) {
        return error instanceof S3Exception s3Error && s3Error.statusCode() == 404;
    }

    /** What an upload stored, the response's JSON. */
    record Stored(long bytes, String eTag, int parts) {
        static Stored of(UploadResult result) {
            return new Stored(result.bytes(), result.eTag(), result.parts());
        }
    }
}
