package io.sluice.internal;

import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.Callable;

/** Calls a user's opener on the drain, keeping its {@link IOException} as is. */
public final class Openers {

    private Openers() {}

    /**
     * Calls {@code opener}; an {@code IOException} or runtime exception passes through, any other
     * checked exception is wrapped in an {@code IOException}, and {@code null} is refused.
     *
     * @param what names the opened thing in messages, such as {@code "channel"}
     */
    public static <T> T open(Callable<? extends T> opener, String what) throws IOException {
        T opened;
        try {
            opened = opener.call();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(what + " opener failed: " + e, e);
        }
        return Objects.requireNonNull(opened, "the " + what + " opener returned null");
    }
}
