package io.flashsale.bootstrap.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The deduction log (ADR 0087): a line on logger {@code flashsale.deductions} for each attempt the hot store answered.
 *
 * @param deductionLog           on: every attempt; sampled: a share of them; off: none
 * @param deductionLogSampleRate the share of attempts logged when sampled, from 0 (none) to 1 (all)
 */
@ConfigurationProperties("flashsale.reservations")
public record DeductionLogProperties(@DefaultValue("sampled") Mode deductionLog,
                                     @DefaultValue("0.01") double deductionLogSampleRate) {

    public enum Mode { ON, SAMPLED, OFF }

    public DeductionLogProperties {
        if (!(deductionLogSampleRate >= 0 && deductionLogSampleRate <= 1)) {
            throw new IllegalArgumentException(
                    "flashsale.reservations.deduction-log-sample-rate must be from 0 to 1, not " + deductionLogSampleRate);
        }
    }

    /** The share of attempts logged: 1 when on, 0 when off. */
    public double share() {
        return switch (deductionLog) {
            case ON -> 1;
            case SAMPLED -> deductionLogSampleRate;
            case OFF -> 0;
        };
    }
}
