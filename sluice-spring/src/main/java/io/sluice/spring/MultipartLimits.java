package io.sluice.spring;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * The limits one multipart read enforces, as a reader's setters ({@link StoringPartReader},
 * {@link PartEventReader}) left them when the read began: each reader holds one of these, a setter
 * replaces it with a copy that differs in one limit, and a read takes the one it finds, so a setter
 * called during a read changes later reads only.
 *
 * @param maxParts the most parts a form may have; zero or less for no limit
 * @param maxHeadersSize the most bytes of a part's headers section, counted as Spring's parser counts
 *     them: from the end of the boundary through the blank line, less one
 * @param maxInMemorySize the most bytes of a form field's value, held in memory; -1 for no limit
 * @param maxPartSize the most content bytes of any part; -1 for no limit
 * @param headersCharset the charset of the parts' headers and of the boundary
 */
record MultipartLimits(
        int maxParts, int maxHeadersSize, int maxInMemorySize, long maxPartSize, Charset headersCharset) {

    /** Spring's readers' defaults: no limit on parts or part size, 10 KiB of headers, 256 KiB per form field, UTF-8. */
    static final MultipartLimits DEFAULTS = new MultipartLimits(-1, 10 * 1024, 256 * 1024, -1, StandardCharsets.UTF_8);

    MultipartLimits withMaxParts(int limit) {
        return new MultipartLimits(limit, maxHeadersSize, maxInMemorySize, maxPartSize, headersCharset);
    }

    MultipartLimits withMaxHeadersSize(int limit) {
        return new MultipartLimits(maxParts, limit, maxInMemorySize, maxPartSize, headersCharset);
    }

    MultipartLimits withMaxInMemorySize(int limit) {
        return new MultipartLimits(maxParts, maxHeadersSize, limit, maxPartSize, headersCharset);
    }

    MultipartLimits withMaxPartSize(long limit) {
        return new MultipartLimits(maxParts, maxHeadersSize, maxInMemorySize, limit, headersCharset);
    }

    MultipartLimits withHeadersCharset(Charset charset) {
        return new MultipartLimits(maxParts, maxHeadersSize, maxInMemorySize, maxPartSize, charset);
    }

    /** The most bytes a form field may hold in memory: the smaller of the limits that are set, or -1. */
    long maxFormFieldSize() {
        if (maxPartSize < 0) {
            return maxInMemorySize;
        }
        return maxInMemorySize < 0 ? maxPartSize : Math.min(maxInMemorySize, maxPartSize);
    }
}
