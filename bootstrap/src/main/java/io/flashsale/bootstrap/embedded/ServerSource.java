package io.flashsale.bootstrap.embedded;

import io.flashsale.embedded.ServerAddress;

import java.util.Optional;
import java.util.function.Predicate;

/** Where one server comes from at start-up. An explicitly configured address is never replaced. */
sealed interface ServerSource {

    /** Configured and answering. */
    record Configured(ServerAddress address) implements ServerSource {
    }

    /** Nothing configured, demo mode on, and the probed default address answers. */
    record Local(ServerAddress address) implements ServerSource {
    }

    /** Nothing configured, nothing answering, demo mode allowed: start one in-process. */
    record Embedded() implements ServerSource {
    }

    /**
     * @param what       the server's name in messages, e.g. "Redis"
     * @param configured the address from the configuration, if any
     * @param setting    the properties that configure it, named in messages
     * @param demoMode   whether a missing server may be looked for on the probe address and else started in-process
     * @throws IllegalStateException when a configured server does not answer, or none is configured outside demo mode
     */
    static ServerSource choose(String what, Optional<ServerAddress> configured, String setting, ServerAddress probe,
                               boolean demoMode, Predicate<ServerAddress> answers) {
        if (configured.isPresent()) {
            ServerAddress address = configured.get();
            if (!answers.test(address)) {
                throw new IllegalStateException(what + " is configured at " + address + " (" + setting
                        + ") but nothing answers there. A configured server is never replaced by an embedded one:"
                        + " start it, or correct the address.");
            }
            return new Configured(address);
        }
        if (!demoMode) {
            // Production-safe (ADR 80): a misspelt or forgotten setting never falls back to a local or embedded server.
            throw new IllegalStateException("No " + what + " configured: set " + setting + ". Outside demo mode "
                    + "nothing is probed or started in-process; demo mode is the demo profile "
                    + "(--spring.profiles.active=demo, which sets " + EmbeddedServersProperties.DEMO_MODE + "=true).");
        }
        if (answers.test(probe)) {
            return new Local(probe);
        }
        return new Embedded();
    }
}
