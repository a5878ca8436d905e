package io.flashsale.adapter.web.security;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The operators allowed to make admin calls, each with a bearer token of its own. Which token authenticated is who
 * the caller is: the name is never taken from anything the caller declares. Every candidate is compared with every
 * operator's token, so the time taken tells neither whether nor whose token matched.
 */
public final class AdminCredentials {

    /** Letters, digits, '-' and '_': what an audit row and a log line can show as it is. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private final List<Map.Entry<String, AdminToken>> operators;

    private AdminCredentials(Map<String, AdminToken> operators) {
        if (operators.isEmpty()) {
            throw new IllegalArgumentException("at least one admin operator is required");
        }
        operators.keySet().forEach(name -> {
            if (name == null || !NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("an admin operator's name must match " + NAME + ": " + name);
            }
        });
        this.operators = List.copyOf(new LinkedHashMap<>(operators).entrySet());
    }

    /** @param operators name to token, in the order they were configured */
    public static AdminCredentials of(Map<String, AdminToken> operators) {
        return new AdminCredentials(operators);
    }

    /** The operator whose token this is; empty for none (and for null). */
    public Optional<String> operatorOf(String candidate) {
        if (candidate == null) {
            return Optional.empty();
        }
        byte[] digest = AdminToken.sha256(candidate);
        String found = null;
        for (Map.Entry<String, AdminToken> operator : operators) {
            // No early exit: a match on the first operator takes as long as one on the last, or none.
            if (operator.getValue().matchesDigest(digest) && found == null) {
                found = operator.getKey();
            }
        }
        return Optional.ofNullable(found);
    }

    public List<String> names() {
        return operators.stream().map(Map.Entry::getKey).toList();
    }

    @Override
    public String toString() {
        return "AdminCredentials" + names();
    }
}
