package io.sluice.server;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Upload outcomes as a queue, so tests wait for the server to finish instead of sleeping. */
final class RecordingEvents implements UploadEvents {

    record Outcome(String name, boolean stored, String sha256Hex, Throwable cause) {}

    private final BlockingQueue<Outcome> outcomes = new LinkedBlockingQueue<>();

    @Override
    public void stored(String name, long bytes, String sha256Hex) {
        outcomes.add(new Outcome(name, true, sha256Hex, null));
    }

    @Override
    public void failed(String name, Throwable cause) {
        outcomes.add(new Outcome(name, false, null, cause));
    }

    Outcome next() throws InterruptedException {
        Outcome outcome = outcomes.poll(20, TimeUnit.SECONDS);
        if (outcome == null) {
            throw new AssertionError("no upload outcome within 20 s");
        }
        return outcome;
    }
}
