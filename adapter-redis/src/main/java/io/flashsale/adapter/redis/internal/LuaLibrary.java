package io.flashsale.adapter.redis.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shared library {@code lua/lib/ledger.lua} as definitions ({@code local function fs_x ... end} and
 * {@code local FS_X = ...}), so that a script carries only those it uses, directly or through another: Redis runs a
 * script's whole text on every call, and each function defined is a closure made again each time (ADR 83). The
 * library's definitions each start at column 0 with {@code local} and a function's ends at the first {@code end} at
 * column 0; the comment lines right above a definition go with it.
 */
final class LuaLibrary {

    private static final Pattern START = Pattern.compile("^local (?:function )?((?:fs|FS)_\\w+)");
    private static final Pattern NAME = Pattern.compile("\\b((?:fs|FS)_\\w+)\\b");
    private static final Pattern COMMENT = Pattern.compile("--[^\\n]*");

    /** Each definition's text by its name, in the library's order. */
    private final Map<String, String> definitions;

    private LuaLibrary(Map<String, String> definitions) {
        this.definitions = definitions;
    }

    static LuaLibrary parse(String library) {
        Map<String, String> definitions = new LinkedHashMap<>();
        List<String> comments = new ArrayList<>();
        String[] lines = library.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            Matcher start = START.matcher(lines[i]);
            if (!start.find()) {
                if (lines[i].startsWith("--")) {
                    comments.add(lines[i]);
                } else {
                    comments.clear();
                }
                continue;
            }
            var text = new StringBuilder(String.join("\n", comments)).append(comments.isEmpty() ? "" : "\n");
            comments.clear();
            text.append(lines[i]);
            if (lines[i].startsWith("local function ")) {
                while (!lines[i].equals("end")) {
                    i++;
                    if (i == lines.length) {
                        throw new IllegalStateException("the library's " + start.group(1) + " has no end at column 0");
                    }
                    text.append('\n').append(lines[i]);
                }
            }
            if (definitions.put(start.group(1), text.toString()) != null) {
                throw new IllegalStateException("the library defines " + start.group(1) + " twice");
            }
        }
        return new LuaLibrary(definitions);
    }

    /** The definitions {@code script} uses, directly or through one another, in the library's order. */
    String neededBy(String script) {
        Set<String> needed = new TreeSet<>();
        List<String> toVisit = new ArrayList<>(namesIn(script));
        while (!toVisit.isEmpty()) {
            String name = toVisit.removeLast();
            String definition = definitions.get(name);
            if (definition != null && needed.add(name)) {
                toVisit.addAll(namesIn(definition));
            }
        }
        var text = new StringBuilder();
        definitions.forEach((name, definition) -> {
            if (needed.contains(name)) {
                text.append(definition).append('\n');
            }
        });
        return text.toString();
    }

    /** Every definition's name, in the library's order. */
    Set<String> names() {
        return definitions.keySet();
    }

    /** The library's names the code in {@code text} uses; a name in a comment is no use. */
    private static List<String> namesIn(String text) {
        List<String> names = new ArrayList<>();
        Matcher name = NAME.matcher(COMMENT.matcher(text).replaceAll(""));
        while (name.find()) {
            names.add(name.group(1));
        }
        return names;
    }
}
