package io.flashsale.adapter.kafka;

import io.flashsale.application.outage.port.out.DatabaseProbePort;

import java.util.concurrent.atomic.AtomicInteger;

/** A database a test switches off and on, counting how often it was asked. */
final class ScriptedDatabaseProbe implements DatabaseProbePort {

    private final AtomicInteger asked = new AtomicInteger();
    private volatile boolean answering = true;

    void answering(boolean answers) {
        answering = answers;
    }

    int asked() {
        return asked.get();
    }

    @Override
    public boolean answers() {
        asked.incrementAndGet();
        return answering;
    }
}
