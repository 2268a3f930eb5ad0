package io.sluice.examples.spring;

import io.sluice.WriteOptions;
import io.sluice.spring.DataBufferFiles;
import io.sluice.spring.FileParts;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.codec.multipart.FilePart;
import org.springframework.http.codec.multipart.PartEvent;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestPart;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Uploads to the storage directory, each answered with the stored file's size in bytes: a
 * multipart form's part {@code file} ({@code POST}) or the raw request body ({@code PUT}), by
 * Spring's own {@code FilePart.transferTo} and {@code DataBufferUtils.write} under {@code /spring}
 * and by sluice's drop-ins under {@code /sluice}; {@code POST /sluice/stream} stores the part
 * {@code file} of a form read as {@code PartEvent}s, writing its bytes as they arrive. The
 * {@code FilePart} variants find the bytes already stored by their variant's part reader
 * ({@link PartReaders}): Spring's copies its temporary file to the target, sluice's renames the
 * file it stored.
 *
 * <p>sluice's variant replaces the target atomically: it writes a hidden sibling, forces it to the
 * disk, renames it over the target once every byte is written and forces the directory, so an
 * upload that fails or is aborted leaves no partial file under the client's name and a stored one
 * survives a crash. Spring's variant writes the target in place without forcing anything, and an
 * aborted upload leaves what had arrived. {@code /sluice/plain} does the same work as Spring's,
 * through sluice: the raw body written in place with {@code WriteOptions.defaults()}, the file part
 * renamed from where sluice's part reader stored it, neither forced; it is the variant to compare
 * with Spring's like for like, {@code /sluice} the one an application wanting durable uploads uses.
 */
@RestController
class UploadController {

    private static final WriteOptions ATOMIC = WriteOptions.defaults().withAtomicReplace();

    private final Storage storage;

    UploadController(Storage storage) {
        this.storage = storage;
    }

    @PostMapping("/spring/files/{name}")
    Mono<Long> springPart(@PathVariable String name, @RequestPart("file") FilePart part) {
        Path target = storage.resolve(name);
        return part.transferTo(target).then(sizeOf(target));
    }

    @PutMapping("/spring/raw/{name}")
    Mono<Long> springRaw(@PathVariable String name, @RequestBody Flux<DataBuffer> body) {
        Path target = storage.resolve(name);
        return DataBufferUtils.write(body, target).then(sizeOf(target));
    }

    @PostMapping("/sluice/files/{name}")
    Mono<Long> sluicePart(@PathVariable String name, @RequestPart("file") FilePart part) {
        Path target = storage.resolve(name);
        return FileParts.transferTo(part, target, ATOMIC).then(sizeOf(target));
    }

    @PutMapping("/sluice/raw/{name}")
    Mono<Long> sluiceRaw(@PathVariable String name, @RequestBody Flux<DataBuffer> body) {
        return DataBufferFiles.write(body, storage.resolve(name), ATOMIC);
    }

    @PostMapping("/sluice/plain/files/{name}")
    Mono<Long> sluicePlainPart(@PathVariable String name, @RequestPart("file") FilePart part) {
        Path target = storage.resolve(name);
        return FileParts.transferTo(part, target).then(sizeOf(target));
    }

    @PutMapping("/sluice/plain/raw/{name}")
    Mono<Long> sluicePlainRaw(@PathVariable String name, @RequestBody Flux<DataBuffer> body) {
        return DataBufferFiles.write(body, storage.resolve(name));
    }

    @PostMapping("/sluice/stream/{name}")
    Mono<Long> sluiceStream(@PathVariable String name, @RequestBody Flux<PartEvent> parts) {
        Path target = storage.resolve(name);
        return FileParts.store(parts, file -> file.name().equals("file") ? target : null, ATOMIC)
                .map(FileParts.StoredPart::bytes)
                .single();
    }

    private static Mono<Long> sizeOf(Path file) {
        return Mono.fromCallable(() -> Files.size(file)).subscribeOn(Schedulers.boundedElastic());
    }
}
