package io.sluice.bench.adaptive;

import io.sluice.demand.DemandController;
import io.sluice.internal.write.WriteLedger;
import io.sluice.lab.Pacer;
import io.sluice.lab.PacingClock;
import io.sluice.lab.ScheduledPublisher;
import io.sluice.lab.ThrottledChannel;

import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * The model: a deterministic, seeded discrete-event simulation of producer → writer queue →
 * sink on a simulated clock. Every decision is the real one (its writer keeps sluice's own
 * {@link WriteLedger} around the strategy's {@link DemandController}); the model adds only the
 * writer's and the producer's steps and their time, with delays drawn from {@link ModelCosts}' means
 * by a generator the caller seeds. lab/docs/ADAPTIVE.md §4 lists the steps and what the model leaves out.
 */
public final class DemandSimulation {

    private enum Kind {
        PRODUCER_NEXT,
        EMIT,
        PASS_START,
        CALL_DONE
    }

    private record Event(long nanos, long sequence, Kind kind) {}

    private enum DrainStatus {
        IDLE,
        SCHEDULED,
        RUNNING
    }

    private final Scenario scenario;
    private final StrategyCase strategy;
    private final ModelCosts costs;
    private final SplittableRandom random;
    private final PriorityQueue<Event> events = new PriorityQueue<>( // by time, then in scheduling order
            Comparator.comparingLong(Event::nanos).thenComparingLong(Event::sequence));
    private final long itemBytes;
    private final boolean syncProducer;
    private long sequence;

    // producer
    private Pacer producerPacer; // created at the first request, as in ScheduledPublisher
    private long producerDemand;
    private boolean producerActive; // an item is being produced or the thread is waking
    private boolean producerIdle = true; // had no demand since its last item
    private long emittedBytes;

    // writer
    private final WriteLedger ledger; // the writer's own counts and rules
    private long queuedInList; // items in the writer's queue, not yet taken by a pass
    private DrainStatus drain = DrainStatus.IDLE;
    private boolean signalledDuringPass;
    private boolean opened;
    private long batchItems;
    private long batchUnwrittenBytes;
    private long batchBytes;
    private long bytesThisPass;
    private long itemsThisPass;

    // sink
    private final Pacer sinkPacer;
    private long sinkBytes;
    private long callBytes;

    private final RunRecorder recorder = new RunRecorder(0, RunRecorder.SAMPLE_NANOS, () -> sinkBytes);

    private DemandSimulation(Scenario scenario, StrategyCase strategy, ModelCosts costs, long seed) {
        this.scenario = scenario;
        this.strategy = strategy;
        this.costs = costs;
        this.random = new SplittableRandom(seed);
        this.ledger = new WriteLedger(strategy.strategy(), scenario.maxQueuedBytes(), 0);
        this.itemBytes = scenario.itemBytes();
        this.syncProducer = scenario.emission() == ScheduledPublisher.Emission.SYNC;
        this.sinkPacer = new Pacer(scenario.sink(), 0);
    }

    /** Simulates {@code scenario} under {@code strategy} for the scenario's duration. */
    public static RunResult run(Scenario scenario, StrategyCase strategy, ModelCosts costs, long seed) {
        return new DemandSimulation(scenario, strategy, costs, seed).simulate();
    }

    private RunResult simulate() {
        long end = scenario.durationNanos();
        schedule(delay(costs.dispatchNanos()), Kind.PASS_START); // onSubscribe signals the drain
        drain = DrainStatus.SCHEDULED;
        while (!events.isEmpty() && events.peek().nanos() <= end) {
            Event event = events.poll();
            switch (event.kind()) {
                case PRODUCER_NEXT -> produceNext(event.nanos());
                case EMIT -> {
                    deliver(event.nanos());
                    produceNext(event.nanos());
                }
                case PASS_START -> startPass(event.nanos());
                case CALL_DONE -> callDone(event.nanos());
                default -> throw new AssertionError("unhandled event " + event.kind());
            }
        }
        return recorder.result(scenario.name(), strategy.name(), end, sinkBytes);
    }

    private void request(long n, long now) {
        if (producerPacer == null) {
            producerPacer = new Pacer(scenario.producer(), now);
        }
        long sum = producerDemand + n;
        producerDemand = sum < 0 ? Long.MAX_VALUE : sum;
        if (syncProducer) {
            return; // the caller emits on the drain
        }
        if (!producerActive) {
            producerActive = true;
            schedule(now + delay(costs.producerWakeNanos()), Kind.PRODUCER_NEXT);
        }
    }

    /** The next item's emission time, as {@link ScheduledPublisher} paces it. */
    private long nextEmission(long now) {
        if (producerIdle) {
            producerPacer.resume(now);
            producerIdle = false;
        }
        long deadline = producerPacer.reserveContinuing(itemBytes);
        return waitUntil(deadline, now)
                + costs.producerItemNanos()
                + Math.round(costs.producerNanosPerByte() * itemBytes);
    }

    private void produceNext(long now) {
        if (producerDemand == 0) {
            producerActive = false; // parks until the next request
            producerIdle = true;
            return;
        }
        schedule(nextEmission(now), Kind.EMIT);
    }

    /** One onNext: the writer counts and enqueues the item and signals its drain. */
    private void deliver(long now) {
        if (producerDemand != Long.MAX_VALUE) {
            producerDemand--;
        }
        if (!ledger.mayReceive()) {
            throw new AssertionError("the producer emitted beyond demand");
        }
        emittedBytes += itemBytes;
        ledger.receive(itemBytes);
        queuedInList++;
        recorder.emitted(emittedBytes);
        if (drain == DrainStatus.IDLE) {
            drain = DrainStatus.SCHEDULED;
            schedule(now + delay(costs.dispatchNanos()), Kind.PASS_START);
        } else if (drain == DrainStatus.RUNNING) {
            signalledDuringPass = true;
        }
    }

    private void startPass(long now) {
        drain = DrainStatus.RUNNING;
        signalledDuringPass = false;
        bytesThisPass = 0;
        itemsThisPass = 0;
        if (!opened) {
            opened = true;
            now = issueDemand(now).nanos;
        }
        takeBatch(now);
    }

    private void takeBatch(long now) {
        long upToByteLimit = (WriteLedger.MAX_BATCH_BYTES + itemBytes - 1) / itemBytes; // the item reaching it too
        long count = Math.min(Math.min(WriteLedger.batchItems(itemsThisPass), upToByteLimit), queuedInList);
        long bytes = count * itemBytes;
        if (count == 0) {
            afterWrite(now);
            return;
        }
        queuedInList -= count;
        batchItems = count;
        batchBytes = bytes;
        batchUnwrittenBytes = bytes;
        startCall(now + count * costs.drainItemNanos());
    }

    private void startCall(long now) {
        callBytes = Math.min(batchUnwrittenBytes, ThrottledChannel.MAX_BYTES_PER_WRITE);
        long deadline = sinkPacer.reserve(now, callBytes);
        long woke = waitUntil(deadline, now);
        sinkPacer.woke(Math.max(deadline, now), woke); // as ThrottledChannel: lateness is paid back
        schedule(woke + costs.writeCallNanos(), Kind.CALL_DONE);
    }

    private void callDone(long now) {
        sinkBytes += callBytes;
        batchUnwrittenBytes -= callBytes;
        if (batchUnwrittenBytes > 0) {
            startCall(now);
            return;
        }
        ledger.written(batchItems, batchBytes);
        bytesThisPass += batchBytes;
        itemsThisPass += batchItems;
        afterWrite(now);
    }

    private void afterWrite(long now) {
        Issued issued = issueDemand(now);
        now = issued.nanos;
        recorder.pass(
                now,
                ledger.queuedBytes(),
                ledger.controller().windowItems(),
                ledger.outstandingItems(),
                sinkBytes,
                ledger.requestCalls());
        if (queuedInList == 0 && issued.items == 0) {
            endPass(now);
            return;
        }
        if (WriteLedger.passDone(bytesThisPass, itemsThisPass)) {
            drain = DrainStatus.SCHEDULED; // W7: yield
            schedule(now + delay(costs.dispatchNanos()), Kind.PASS_START);
            return;
        }
        takeBatch(now);
    }

    private void endPass(long now) {
        if (signalledDuringPass) {
            schedule(now, Kind.PASS_START); // SerialDrain: missed signals run another pass at once
            drain = DrainStatus.SCHEDULED;
        } else {
            drain = DrainStatus.IDLE;
        }
    }

    private record Issued(long items, long nanos, boolean emittedInRequest) {}

    /** Asks the ledger and requests; after items emitted inside the request, asks once more before writing them. */
    private Issued issueDemand(long now) {
        Issued first = requestOnce(now);
        if (first.items == 0 || !first.emittedInRequest) {
            return first;
        }
        Issued second = requestOnce(first.nanos);
        return new Issued(first.items + second.items, second.nanos, second.emittedInRequest);
    }

    private Issued requestOnce(long now) {
        long n = ledger.nextRequest();
        if (n == 0) {
            return new Issued(0, now, false);
        }
        ledger.requested(n);
        request(n, now);
        boolean emitted = false;
        if (syncProducer) {
            while (producerDemand > 0) { // emits inside request, on the drain
                now = nextEmission(now);
                deliver(now);
                emitted = true;
            }
            producerIdle = true;
        }
        return new Issued(n, now, emitted);
    }

    /** When a paced end waiting for {@code deadline} goes on, as {@link PacingClock#system()} waits. */
    private long waitUntil(long deadline, long now) {
        return deadline - now < PacingClock.SystemClock.MIN_PARK_NANOS
                ? now
                : deadline + delay(costs.parkOvershootNanos());
    }

    private void schedule(long nanos, Kind kind) {
        events.add(new Event(nanos, sequence++, kind));
    }

    private long delay(long meanNanos) {
        return meanNanos == 0 ? 0 : Math.round(-meanNanos * Math.log(1 - random.nextDouble()));
    }
}
