package io.sluice.server;

/** A request the server refuses, with the status and the message the client gets. */
final class HttpProblem extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;

    HttpProblem(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    int status() {
        return status;
    }

    static HttpProblem badRequest(String message) {
        return new HttpProblem(400, message);
    }

    static HttpProblem tooLarge(long limitBytes) {
        return new HttpProblem(413, "upload exceeds the limit of " + limitBytes + " bytes");
    }
}
