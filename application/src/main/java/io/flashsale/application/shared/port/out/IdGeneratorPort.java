package io.flashsale.application.shared.port.out;

/** Server-made ids: unique, time-ordered, 1-32 characters of [A-Za-z0-9]. */
public interface IdGeneratorPort {

    String next();
}
