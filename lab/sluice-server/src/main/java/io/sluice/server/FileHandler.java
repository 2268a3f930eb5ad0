package io.sluice.server;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.util.URIUtil;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.file.Path;

/**
 * The one handler body every lane runs: routing, name validation, the {@code delay} parameter and
 * the upload limit are decided here; moving the bytes is the lane's {@link Storage}.
 *
 * <pre>
 * GET    /files/{name}            200 or 206 (Range), 404, 416
 * PUT    /files/{name}[?delay=ms] 201 {"name":..,"bytes":..,"sha256":..}, 400, 413
 * DELETE /files/{name}            204, 404
 * GET    /metrics                 heap, heap allocated so far, threads and queued bytes as key=value lines
 * </pre>
 */
final class FileHandler extends Handler.Abstract {

    static final String FILES = "/files/";
    static final long MAX_DELAY_MILLIS = 60_000;

    private final Path directory;
    private final Storage storage;

    FileHandler(Lane lane, Path directory, Storage storage) {
        // Blocking lanes are dispatched to a pool thread; lane C may run on the selector thread.
        super(lane.blocking() ? InvocationType.BLOCKING : InvocationType.NON_BLOCKING);
        this.directory = directory;
        this.storage = storage;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String rawPath = request.getHttpURI().getPath();
        try {
            if ("/metrics".equals(rawPath) && "GET".equals(request.getMethod())) {
                Replies.text(response, callback, 200, metrics());
                return true;
            }
            if (rawPath == null || !rawPath.startsWith(FILES)) {
                Replies.text(response, callback, 404, "not found: use /files/{name}");
                return true;
            }
            String name = URIUtil.decodePath(rawPath.substring(FILES.length()));
            Path file = FileNames.resolve(directory, name);
            long delayMillis = delayMillis(request);
            switch (request.getMethod()) {
                case "GET" -> storage.get(request, response, callback, name, file, delayMillis);
                case "PUT" -> storage.put(request, response, callback, name, file, delayMillis);
                case "DELETE" -> storage.delete(request, response, callback, name, file, delayMillis);
                default -> {
                    response.getHeaders().put(HttpHeader.ALLOW, "GET, PUT, DELETE");
                    Replies.text(response, callback, 405, "method " + request.getMethod() + " not allowed");
                }
            }
        } catch (HttpProblem problem) {
            Replies.failure(response, callback, problem);
        } catch (IllegalArgumentException e) { // a malformed %-escape in the name
            Replies.text(response, callback, 400, "malformed file name: " + e.getMessage());
        }
        return true;
    }

    private static long delayMillis(Request request) {
        Fields query = Request.extractQueryParameters(request);
        String value = query.getValue("delay");
        if (value == null) {
            return 0;
        }
        try {
            long millis = Long.parseLong(value);
            if (millis >= 0 && millis <= MAX_DELAY_MILLIS) {
                return millis;
            }
        } catch (NumberFormatException ignored) {
            // falls through to the message
        }
        throw HttpProblem.badRequest(
                "delay must be a number of milliseconds in 0.." + MAX_DELAY_MILLIS + ", was '" + value + "'");
    }

    private static String metrics() {
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        long direct = ManagementFactory.getPlatformMXBeans(java.lang.management.BufferPoolMXBean.class).stream()
                .filter(pool -> pool.getName().equals("direct"))
                .mapToLong(java.lang.management.BufferPoolMXBean::getMemoryUsed)
                .sum();
        long allocated = AllocatedHeap.totalBytes();
        return "heapUsedBytes=" + heap.getUsed()
                + "\nheapMaxBytes=" + heap.getMax()
                + (allocated >= 0 ? "\nheapAllocatedBytes=" + allocated : "")
                + "\ndirectBytes=" + direct
                + "\nliveThreads=" + ManagementFactory.getThreadMXBean().getThreadCount()
                + "\npeakThreads=" + ManagementFactory.getThreadMXBean().getPeakThreadCount()
                + "\nqueuedResponseBytes=" + ResponseBodySubscriber.QUEUED_BYTES.get();
    }
}
