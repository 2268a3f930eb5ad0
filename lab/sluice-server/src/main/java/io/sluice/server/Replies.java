package io.sluice.server;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.CompletionException;

/** The parts of an answer every lane writes the same way. */
final class Replies {

    private Replies() {}

    /** A small text answer; the body is the message and a newline. */
    static void text(Response response, Callback callback, int status, String message) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
        Content.Sink.write(response, true, message + "\n", callback);
    }

    /** An {@link HttpProblem} as its own answer; any other failure to Jetty (500 while nothing is committed). */
    static void failure(Response response, Callback callback, Throwable cause) {
        if (cause instanceof HttpProblem problem && !response.isCommitted()) {
            text(response, callback, problem.status(), problem.getMessage());
        } else {
            callback.failed(cause);
        }
    }

    /** 201 with what was stored, as a one-line JSON object, and the digest in a header too. */
    static void stored(Response response, Callback callback, String name, long bytes, String sha256Hex) {
        response.setStatus(201);
        response.getHeaders().put("X-Content-SHA256", sha256Hex);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        String json = "{\"name\":\"" + name + "\",\"bytes\":" + bytes + ",\"sha256\":\"" + sha256Hex + "\"}";
        Content.Sink.write(response, true, json + "\n", callback);
    }

    /**
     * Answers an upload that ended: 201 with what was stored and its digest, or the failure (an
     * {@link HttpProblem} among its causes, such as the body past the limit, as its own answer);
     * {@code events} hears of it first.
     */
    static void uploaded(
            Response response,
            Callback callback,
            UploadEvents events,
            String name,
            Sha256 sha256,
            long bytes,
            Throwable failure) {
        if (failure == null) {
            String hex = sha256.hex();
            events.stored(name, bytes, hex);
            stored(response, callback, name, bytes, hex);
            return;
        }
        Throwable cause = problemOrCause(failure);
        events.failed(name, cause);
        failure(response, callback, cause);
    }

    /** The {@link HttpProblem} among {@code failure}'s causes, or else {@code failure} without its completion wrappers. */
    static Throwable problemOrCause(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof HttpProblem) {
                return cause;
            }
        }
        return unwrap(failure);
    }

    /** {@code failure} without the {@link CompletionException}s around it. */
    static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** 404 for a missing file, 500 with the cause for any other failure to open or size it. */
    static void cannotOpen(Response response, Callback callback, Path file, IOException exception) {
        if (exception instanceof NoSuchFileException) {
            text(response, callback, 404, "no such file: " + file.getFileName());
        } else {
            text(response, callback, 500, "cannot read " + file.getFileName() + ": " + exception.getMessage());
        }
    }

    /**
     * Sets status and headers for a GET of a file of {@code size} bytes (taken from the opened
     * channel), or answers 416 itself; touches no file.
     *
     * @return the range to send, or null when the answer has been written already
     */
    static ByteRange startDownload(Request request, Response response, Callback callback, long size) {
        ByteRange range = ByteRange.of(request.getHeaders().get(HttpHeader.RANGE), size);
        if (range == null) {
            response.getHeaders().put(HttpHeader.CONTENT_RANGE, "bytes */" + size);
            text(response, callback, 416, "range not satisfiable for a file of " + size + " bytes");
            return null;
        }
        response.setStatus(range.partial() ? 206 : 200);
        response.getHeaders().put(HttpHeader.ACCEPT_RANGES, "bytes");
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/octet-stream");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, range.length());
        if (range.partial()) {
            response.getHeaders().put(HttpHeader.CONTENT_RANGE, range.contentRange(size));
        }
        return range;
    }

    static void deleted(Response response, Callback callback, String name, boolean existed) {
        if (existed) {
            response.setStatus(204);
            callback.succeeded();
        } else {
            text(response, callback, 404, "no such file: " + name);
        }
    }

    /** The 413 check that needs no body: a declared length beyond the limit. */
    static void checkDeclaredLength(Request request, long maxUploadBytes) {
        long declared = request.getLength();
        if (declared > maxUploadBytes) {
            throw HttpProblem.tooLarge(maxUploadBytes);
        }
    }
}
