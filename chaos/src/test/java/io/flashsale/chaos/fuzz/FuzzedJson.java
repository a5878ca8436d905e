package io.flashsale.chaos.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;

import java.util.List;

/**
 * JSON values from fuzzer bytes, mostly of the shape a field expects (so inputs get past the parser into validation
 * and the use cases) and sometimes not: numbers at and past every bound, strings of any Unicode, wrong types,
 * deep nesting, repeated and unknown keys.
 */
final class FuzzedJson {

    private static final List<String> ODD_VALUES = List.of("null", "true", "false", "{}", "[]", "\"\"", "-0", "0.0",
            "1e400", "-1e400", "NaN", "\"\\u0000\"", "\"\\ud800\"", "9223372036854775808", "1.5", "[1]", "{\"a\":1}");

    private FuzzedJson() {
    }

    /** A count that should be {@code 1..max}: mostly small and valid, otherwise an edge or something else. */
    static String count(FuzzedDataProvider data, long max) {
        return switch (data.consumeInt(0, 9)) {
            case 0 -> Long.toString(data.consumeLong());
            case 1 -> data.pickValue(List.of("0", "-1", Long.toString(max), Long.toString(max + 1),
                    Integer.toString(Integer.MAX_VALUE), "2147483648", Long.toString(Long.MIN_VALUE)));
            case 2 -> oddValue(data);
            case 3 -> "\"" + data.consumeInt(-2, 5) + "\"";
            case 4 -> Double.toString(data.consumeDouble());
            default -> Integer.toString(data.consumeInt(1, 3));
        };
    }

    /** A signed amount that should be non-zero and within {@code ±max}. */
    static String delta(FuzzedDataProvider data, long max) {
        return switch (data.consumeInt(0, 7)) {
            case 0 -> Long.toString(data.consumeLong());
            case 1 -> data.pickValue(List.of("0", Long.toString(max), Long.toString(-max), Long.toString(max + 1),
                    Long.toString(Long.MIN_VALUE), "-1000000"));
            case 2 -> oddValue(data);
            default -> Integer.toString(data.consumeInt(-30, 30));
        };
    }

    /** An identifier that should match {@code [A-Za-z0-9_-]{1,64}}: one of {@code known}, a near miss, or any text. */
    static String id(FuzzedDataProvider data, List<String> known) {
        return switch (data.consumeInt(0, 7)) {
            case 0 -> string(data.consumeString(80));
            case 1 -> oddValue(data);
            case 2 -> string("x".repeat(data.consumeInt(60, 70)));
            case 3 -> string(data.pickValue(known) + data.consumeString(3));
            default -> string(data.pickValue(known));
        };
    }

    static String oddValue(FuzzedDataProvider data) {
        return data.pickValue(ODD_VALUES);
    }

    /** Arrays or objects nested up to a few hundred deep, balanced or not. */
    static String nesting(FuzzedDataProvider data) {
        int depth = data.consumeInt(0, 400);
        boolean objects = data.consumeBoolean();
        String open = objects ? "{\"n\":" : "[";
        String close = objects ? "}" : "]";
        int closing = data.consumeBoolean() ? depth : data.consumeInt(0, depth);
        return open.repeat(depth) + (objects ? "1" : "") + close.repeat(closing);
    }

    /** A JSON string literal of {@code text}, escaped where JSON requires it, other Unicode left as it is. */
    static String string(String text) {
        StringBuilder quoted = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        quoted.append(String.format("\\u%04x", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }
}
