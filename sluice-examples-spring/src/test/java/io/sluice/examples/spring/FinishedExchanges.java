package io.sluice.examples.spring;

import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The requests the server has finished handling, whichever way (completed, failed, cancelled when
 * the client went away), so a test can wait for the server's side of an exchange rather than for
 * a time. {@code @Import} it into a test's application.
 */
class FinishedExchanges implements WebFilter {

    private final BlockingQueue<String> finished = new LinkedBlockingQueue<>(); // server threads -> test thread

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        String request = exchange.getRequest().getMethod() + " "
                + exchange.getRequest().getPath().value();
        return chain.filter(exchange).doFinally(signal -> finished.add(request));
    }

    /** Waits until the server has finished {@code request} ("PUT /sluice/raw/a"), skipping others. */
    void await(String request) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        for (String next; ; ) {
            next = finished.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (next == null) {
                throw new AssertionError("the server did not finish " + request + " in 20 s");
            }
            if (next.equals(request)) {
                return;
            }
        }
    }
}
