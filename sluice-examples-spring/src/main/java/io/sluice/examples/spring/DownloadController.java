package io.sluice.examples.spring;

import io.sluice.ReadOptions;
import io.sluice.spring.DataBufferFiles;
import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.Resource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Downloads from the storage directory, the whole file or one {@code Range}. Spring's variant
 * ({@code /spring}) returns a {@link Resource}: WebFlux's resource writer answers ranges (206,
 * several ranges as {@code multipart/byteranges}, 416) and, on Reactor Netty, sends the file with
 * zero-copy ({@code sendfile}). sluice's variant ({@code /sluice}) streams the file's pooled chunks
 * through {@link DataBufferFiles#read(Path, org.springframework.core.io.buffer.DataBufferFactory,
 * ReadOptions)} with the response's factory: Netty buffers over the chunks, sent as they are, each
 * given back to its pool once sent; its ranges are {@link ByteRange}'s:
 * one range (206, 416), several answered with the whole file.
 */
@RestController
class DownloadController {

    private final Storage storage;

    DownloadController(Storage storage) {
        this.storage = storage;
    }

    @GetMapping("/spring/files/{name}")
    Mono<Resource> spring(@PathVariable String name) {
        return Mono.fromCallable(() -> (Resource) new FileSystemResource(storage.existing(name)))
                .subscribeOn(Schedulers.boundedElastic());
    }

    @GetMapping("/sluice/files/{name}")
    Mono<Void> sluice(@PathVariable String name, ServerHttpRequest request, ServerHttpResponse response) {
        return Mono.fromCallable(() -> {
                    Path file = storage.existing(name);
                    return new Found(file, Files.size(file));
                })
                .subscribeOn(Schedulers.boundedElastic())
                .flatMap(found -> send(found.file(), found.size(), request, response));
    }

    /** A stored file and its size when the request came. */
    private record Found(Path file, long size) {
    }

    private static Mono<Void> send(Path file, long size, ServerHttpRequest request, ServerHttpResponse response) {
        ByteRange range = ByteRange.of(request.getHeaders(), size);
        HttpHeaders headers = response.getHeaders();
        headers.set(HttpHeaders.ACCEPT_RANGES, "bytes");
        if (!range.satisfiable()) {
            response.setStatusCode(HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE);
            headers.set(HttpHeaders.CONTENT_RANGE, range.contentRange(size));
            return response.setComplete();
        }
        headers.setContentType(MediaType.APPLICATION_OCTET_STREAM);
        headers.setContentLength(range.length());
        if (range.partial()) {
            response.setStatusCode(HttpStatus.PARTIAL_CONTENT);
            headers.set(HttpHeaders.CONTENT_RANGE, range.contentRange(size));
        }
        if (range.length() == 0) {
            return response.setComplete();
        }
        return response.writeWith(DataBufferFiles.read(file, response.bufferFactory(),
                ReadOptions.range(range.offset(), range.length())));
    }
}
