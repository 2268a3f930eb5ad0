package io.sluice.spring;

import java.nio.charset.Charset;

/**
 * The limits one multipart read enforces, as {@link StoringPartReader}'s setters left them when the
 * read began: the parser takes this snapshot, so a setter called during a read changes later reads
 * only.
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

    /** The most bytes a form field may hold in memory: the smaller of the limits that are set, or -1. */
    long maxFormFieldSize() {
        if (maxPartSize < 0) {
            return maxInMemorySize;
        }
        return maxInMemorySize < 0 ? maxPartSize : Math.min(maxInMemorySize, maxPartSize);
    }
}
