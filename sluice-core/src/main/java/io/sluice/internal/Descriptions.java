package io.sluice.internal;

/**
 * Names a user's channel, stream or opener in messages and flight recordings without calling its
 * {@code toString()}, which may be costly or reveal data: a {@code ByteArrayOutputStream}'s is its
 * whole content.
 */
public final class Descriptions {

    private Descriptions() {}

    /** The class name and identity hash, as {@code Object.toString()} would give them. */
    public static String of(Object userObject) {
        return userObject.getClass().getName() + "@" + Integer.toHexString(System.identityHashCode(userObject));
    }
}
