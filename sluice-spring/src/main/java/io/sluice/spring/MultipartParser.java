package io.sluice.spring;

import org.springframework.core.codec.DecodingException;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.codec.multipart.FilePartEvent;
import org.springframework.http.codec.multipart.FormPartEvent;
import org.springframework.http.codec.multipart.PartEvent;

import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Queue;

/**
 * Turns a multipart body, one buffer at a time, into Spring's {@link PartEvent}s, reading the body
 * as Spring's own parser does: the preamble runs to the first {@code --boundary}; a part's headers
 * run from there to the first blank line ({@code CR LF CR LF}), one {@code name: value} per line
 * (lines without a colon ignored, no folding); its content runs to the next {@code CR LF --boundary};
 * a boundary followed by {@code --} closes the form, and what follows it (the epilogue) is ignored.
 *
 * <p>Per part, the events are those of Spring's {@code PartEventHttpMessageReader}: a form field (no
 * filename, no content type or {@code text/plain}) is one {@link FormPartEvent}, its value decoded
 * in the part's charset; any other part is a run of content events (a {@link FilePartEvent} each
 * when it has a filename) whose last says {@link PartEvent#isLast()}, or one empty last event.
 *
 * <p>The content delimiter is found by {@link DelimiterScan} over the bytes each buffer exposes;
 * a part's content is passed on as slices split off the input buffer ({@link DataBuffer#split}),
 * and only the few bytes held back across a buffer's end, when they turn out to be content, are
 * copied into a new buffer of the input's factory. Headers and form fields are copied into arrays,
 * within their limits, so the parser holds no buffer between calls.
 *
 * <p><b>Resources:</b> {@link #parse} always releases what is left of the buffer it is given, and
 * every buffer in an event it adds is the receiver's to release.
 *
 * <p><b>Threading:</b> none of its own; one caller at a time, its calls ordered (the drain of
 * {@link MultipartPublisher}).
 */
final class MultipartParser {

    private static final byte CR = '\r';
    private static final byte LF = '\n';
    private static final byte HYPHEN = '-';
    private static final int FIRST_HEADERS_CAPACITY = 256;

    private enum State {
        PREAMBLE,
        HEADERS,
        BODY,
        CLOSED
    }

    private enum Kind {
        FORM_FIELD,
        FILE,
        OTHER
    }

    private final MultipartLimits limits;
    private final String boundary; // for messages
    private final DelimiterScan firstBoundary; // "--" boundary, where the preamble ends
    private final DelimiterScan delimiter; // CR LF "--" boundary, where a part's content ends
    private State state = State.PREAMBLE;
    private byte[] headerBytes = new byte[FIRST_HEADERS_CAPACITY]; // the current headers section so far
    private int headerLength; // bytes in use in headerBytes
    private int parts; // parts begun so far
    private HttpHeaders headers; // the current part's, read-only
    private Kind kind; // the current part's
    private long partSize; // the current part's content bytes so far
    private byte[] fieldBytes; // the current form field's value so far
    private int fieldLength; // bytes in use in fieldBytes
    private DataBuffer input; // the buffer being parsed, during parse only
    private int cut; // index in the input's view up to which it is split off or skipped

    /**
     * A parser for one body.
     *
     * @param boundary the boundary, not empty, as the Content-Type's {@code boundary} parameter gives it
     */
    MultipartParser(byte[] boundary, MultipartLimits limits) {
        this.limits = limits;
        this.boundary = new String(boundary, limits.headersCharset());
        byte[] first = new byte[boundary.length + 2];
        first[0] = HYPHEN;
        first[1] = HYPHEN;
        System.arraycopy(boundary, 0, first, 2, boundary.length);
        byte[] crlfFirst = new byte[first.length + 2];
        crlfFirst[0] = CR;
        crlfFirst[1] = LF;
        System.arraycopy(first, 0, crlfFirst, 2, first.length);
        this.firstBoundary = new DelimiterScan(new DelimiterSearch(first));
        this.delimiter = new DelimiterScan(new DelimiterSearch(crlfFirst));
    }

    /** Whether the close delimiter was read: nothing that follows matters. */
    boolean closed() {
        return state == State.CLOSED;
    }

    /**
     * Parses the body's next buffer, adding the events it completes to {@code events}, and releases
     * what is left of it.
     *
     * @throws DecodingException if the body breaks a limit that Spring reports so (too many parts)
     * @throws DataBufferLimitException if a part's headers, a form field or a part's content is too
     *     large; the events added before the failure stay in {@code events}
     */
    void parse(DataBuffer buffer, Queue<PartEvent> events) {
        input = buffer;
        cut = 0;
        try {
            ByteBuffer view = readable(buffer);
            int position = view.position();
            int end = view.limit();
            cut = position;
            while (position < end && state != State.CLOSED) {
                position = switch (state) {
                    case PREAMBLE -> preamble(view, position, end);
                    case HEADERS -> headers(view, position, end);
                    case BODY -> body(view, position, end, events);
                    case CLOSED -> end;
                };
            }
        } finally {
            input = null;
            DataBufferUtils.release(buffer);
        }
    }

    /**
     * The body ended.
     *
     * @throws DecodingException unless the close delimiter was read, as Spring's parser reports it
     */
    void end() {
        String missing = switch (state) {
            case PREAMBLE -> "Could not find first boundary";
            case HEADERS -> "Could not find end of headers";
            case BODY -> "Could not find end of body (\u240d\u240a--" + boundary + ")";
            case CLOSED -> null;
        };
        if (missing != null) {
            throw new DecodingException(missing);
        }
    }

    /** The buffer's readable bytes as one {@code ByteBuffer}: its own when it has one, else a copy. */
    private static ByteBuffer readable(DataBuffer buffer) {
        try (DataBuffer.ByteBufferIterator buffers = buffer.readableByteBuffers()) {
            if (buffers.hasNext()) {
                ByteBuffer first = buffers.next();
                if (!buffers.hasNext()) {
                    return first;
                }
            }
        }
        ByteBuffer copy = ByteBuffer.allocate(buffer.readableByteCount());
        buffer.toByteBuffer(buffer.readPosition(), copy, 0, copy.capacity());
        return copy;
    }

    private int preamble(ByteBuffer view, int from, int to) {
        firstBoundary.scan(view, from, to); // the preamble itself is ignored (RFC 2046 §5.1.1)
        if (firstBoundary.delimiterEnd() < 0) {
            return to;
        }
        startHeaders();
        return firstBoundary.delimiterEnd();
    }

    private void startHeaders() {
        state = State.HEADERS;
        headerLength = 0;
    }

    /**
     * Copies header bytes up to the blank line. A section that begins with {@code --} is the close
     * delimiter's. The limit counts as Spring's parser does: the bytes through the blank line, less one.
     */
    private int headers(ByteBuffer view, int from, int to) {
        int max = limits.maxHeadersSize();
        int position = from;
        while (position < to) {
            byte next = view.get(position++);
            if (headerLength == 1 && headerBytes[0] == HYPHEN && next == HYPHEN) {
                state = State.CLOSED;
                return to;
            }
            appendHeaderByte(next);
            if (next == LF && endsWithBlankLine()) {
                if (headerLength - 1 > max) {
                    throw headersTooLarge(max);
                }
                startPart();
                return position;
            }
            boolean closeMayFollow = headerLength == 1 && next == HYPHEN;
            if (headerLength > max && !closeMayFollow) {
                throw headersTooLarge(max);
            }
        }
        return position;
    }

    private void appendHeaderByte(byte next) {
        if (headerLength == headerBytes.length) {
            headerBytes = Arrays.copyOf(headerBytes, headerBytes.length * 2);
        }
        headerBytes[headerLength++] = next;
    }

    private boolean endsWithBlankLine() {
        return headerLength >= 4
                && headerBytes[headerLength - 4] == CR
                && headerBytes[headerLength - 3] == LF
                && headerBytes[headerLength - 2] == CR;
    }

    private static DataBufferLimitException headersTooLarge(int max) {
        return new DataBufferLimitException("Part headers exceeded the memory usage limit of " + max + " bytes");
    }

    private void startPart() {
        headers = HttpHeaders.readOnlyHttpHeaders(parseHeaders());
        parts++;
        if (limits.maxParts() > 0 && parts > limits.maxParts()) {
            throw new DecodingException("Too many parts (" + parts + "/" + limits.maxParts() + " allowed)");
        }
        boolean named = headers.getContentDisposition().getFilename() != null;
        MediaType type = headers.getContentType();
        if (!named && (type == null || MediaType.TEXT_PLAIN.equalsTypeAndSubtype(type))) {
            kind = Kind.FORM_FIELD;
            fieldBytes = new byte[0];
            fieldLength = 0;
        } else {
            kind = named ? Kind.FILE : Kind.OTHER;
        }
        partSize = 0;
        state = State.BODY;
    }

    /** The section's lines, split at CR LF, each {@code name: value} (leading spaces off the value). */
    private HttpHeaders parseHeaders() {
        String section = new String(headerBytes, 0, headerLength, limits.headersCharset());
        HttpHeaders parsed = new HttpHeaders();
        int start = 0;
        while (start < section.length()) {
            int end = section.indexOf("\r\n", start);
            if (end < 0) {
                end = section.length();
            }
            int colon = section.indexOf(':', start);
            if (colon >= 0 && colon < end) {
                int value = colon + 1;
                while (value < end && section.charAt(value) == ' ') {
                    value++;
                }
                parsed.add(section.substring(start, colon), section.substring(value, end));
            }
            start = end + 2;
        }
        return parsed;
    }

    private int body(ByteBuffer view, int from, int to, Queue<PartEvent> events) {
        delimiter.scan(view, from, to);
        byte[] held = delimiter.heldContent();
        int contentEnd = delimiter.contentEnd();
        int afterDelimiter = delimiter.delimiterEnd();
        boolean ends = afterDelimiter >= 0;
        if (kind == Kind.FORM_FIELD) {
            appendField(held, view, from, contentEnd);
            if (ends) {
                String value = new String(fieldBytes, 0, fieldLength, charset(headers));
                fieldBytes = null;
                events.add(new FormField(headers, value));
            }
        } else {
            boolean fromBuffer = contentEnd > from;
            if (held.length > 0) {
                countContent(held.length);
                DataBuffer copy = input.factory().allocateBuffer(held.length).write(held);
                events.add(content(copy, ends && !fromBuffer));
            }
            if (fromBuffer) {
                countContent(contentEnd - from);
                events.add(content(split(from, contentEnd), ends));
            }
            if (ends && held.length == 0 && !fromBuffer) {
                events.add(content(DefaultDataBufferFactory.sharedInstance.allocateBuffer(0), true));
            }
        }
        if (!ends) {
            return to;
        }
        startHeaders();
        return afterDelimiter;
    }

    private void appendField(byte[] held, ByteBuffer view, int from, int to) {
        int more = held.length + to - from;
        long max = limits.maxFormFieldSize();
        if (max >= 0 && fieldLength + (long) more > max) {
            throw new DataBufferLimitException("Form field exceeded the limit of " + max + " bytes in memory");
        }
        if (fieldLength + more > fieldBytes.length) {
            fieldBytes = Arrays.copyOf(fieldBytes, Math.max(fieldLength + more, fieldBytes.length * 2));
        }
        System.arraycopy(held, 0, fieldBytes, fieldLength, held.length);
        view.get(from, fieldBytes, fieldLength + held.length, to - from);
        fieldLength += more;
    }

    private void countContent(int bytes) {
        partSize += bytes;
        long max = limits.maxPartSize();
        if (max >= 0 && partSize > max) {
            throw new DataBufferLimitException("Part exceeded the limit of " + max + " bytes");
        }
    }

    private PartEvent content(DataBuffer content, boolean last) {
        return kind == Kind.FILE ? new FileContent(headers, content, last) : new OtherContent(headers, content, last);
    }

    /**
     * The input's bytes {@code [from, to)} of its view, split off it (zero copy): the input keeps
     * what follows; what lies between the last split and {@code from} is skipped.
     */
    private DataBuffer split(int from, int to) {
        input.readPosition(input.readPosition() + (from - cut));
        DataBuffer slice = input.split(input.readPosition() + (to - from));
        cut = to;
        return slice;
    }

    private static Charset charset(HttpHeaders headers) {
        MediaType type = headers.getContentType();
        return type != null && type.getCharset() != null ? type.getCharset() : StandardCharsets.UTF_8;
    }

    /** A form field's value, decoded. */
    private record FormField(HttpHeaders headers, String value) implements FormPartEvent {
        @Override
        public DataBuffer content() {
            return DefaultDataBufferFactory.sharedInstance.wrap(value.getBytes(charset(headers)));
        }

        @Override
        public boolean isLast() {
            return true;
        }
    }

    /** Content of a part with a filename. */
    private record FileContent(HttpHeaders headers, DataBuffer content, boolean isLast) implements FilePartEvent {}

    /** Content of a part that is neither a form field nor a file. */
    private record OtherContent(HttpHeaders headers, DataBuffer content, boolean isLast) implements PartEvent {}
}
