package io.flashsale.chaos.harness;

import java.util.Map;

/** The Redis a {@link ChaosSystem}'s instances use, as the harness runs it: where the service finds it, and healing. */
interface RedisUnderTest extends AutoCloseable {

    /** The service's properties that lead it to this Redis. */
    Map<String, String> serviceSettings();

    /** Everything frozen thawed, everything killed started again; returns once it serves as before the faults. */
    void heal();

    @Override
    void close();
}
