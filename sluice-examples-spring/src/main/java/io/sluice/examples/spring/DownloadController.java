package io.sluice.examples.spring;

import io.sluice.spring.FileResponses;
import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.Resource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Downloads from the storage directory, the whole file or one {@code Range}. Spring's variant
 * ({@code /spring}) returns a {@link Resource}: WebFlux's resource writer answers ranges (206,
 * several ranges as {@code multipart/byteranges}, 416) and, on Reactor Netty, sends the file with
 * zero-copy ({@code sendfile}). sluice's variant ({@code /sluice}) is {@link FileResponses#write}:
 * octet-stream, length, one range (206, 416; several answered with the whole file), {@code HEAD},
 * {@code ETag}/{@code Last-Modified} with 304 and 412, 404, with its defaults: on Reactor Netty
 * that is zero-copy ({@code sendfile}) too. {@code /sluice/pooled} is the same call asked for
 * pooled chunks ({@link FileResponses.Options#withoutZeroCopy()}): Netty buffers over the chunks,
 * sent as they are, each given back to its pool once sent, what a server without zero-copy gets,
 * and what an application that meters or caps the bytes it sends chooses.
 */
@RestController
class DownloadController {

    private static final FileResponses.Options POOLED =
            FileResponses.Options.defaults().withoutZeroCopy();

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
    Mono<Void> sluice(@PathVariable String name, ServerWebExchange exchange) {
        return FileResponses.write(exchange, storage.resolve(name));
    }

    @GetMapping("/sluice/pooled/files/{name}")
    Mono<Void> sluicePooled(@PathVariable String name, ServerWebExchange exchange) {
        return FileResponses.write(exchange, storage.resolve(name), POOLED);
    }
}
