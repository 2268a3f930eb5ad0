package io.sluice.spring;

import io.sluice.WriteOptions;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.codec.multipart.FilePart;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestPart;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.nio.file.Path;
import java.util.UUID;

/**
 * The WebFlux controller docs/USING.md quotes (section "Spring WebFlux"): uploads to disk and
 * downloads from disk through sluice. {@link FileControllerTest} calls its methods as WebFlux would;
 * {@link UsingDocTest} checks the page quotes this file line for line.
 */
@RestController
class FileController {

    private final Path uploads;

    static final WriteOptions ATOMIC = WriteOptions.defaults().withAtomicReplace(); // no half upload under an id

    FileController(Path uploads) {
        this.uploads = uploads;
    }

    @PostMapping("/files")
    Mono<String> uploadPart(@RequestPart("file") FilePart part) {
        String id = UUID.randomUUID().toString();
        return FileParts.transferTo(part, uploads.resolve(id), ATOMIC).thenReturn(id);
    }

    @PostMapping("/files/raw")
    Mono<String> uploadBody(@RequestBody Flux<DataBuffer> body) {
        String id = UUID.randomUUID().toString();
        return DataBufferFiles.write(body, uploads.resolve(id), ATOMIC).thenReturn(id);
    }

    @GetMapping("/files/{id}")
    Mono<Void> download(@PathVariable UUID id, ServerWebExchange exchange) {
        return FileResponses.write(exchange, uploads.resolve(id.toString()));
    }
}
