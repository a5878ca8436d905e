package io.flashsale.adapter.redis.internal;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * One script from {@code resources/lua/}, run by EVALSHA. The shared library {@code lua/lib/ledger.lua} is put in
 * front of every script before the SHA is taken, so each script may call its functions. The server's script cache can
 * be emptied at any time (restart, failover, SCRIPT FLUSH), so a NOSCRIPT answer loads the script again and retries
 * once. A script that refuses a move ({@code fs_refuse}) makes {@link #run} throw {@link ScriptRefusedException}.
 */
public final class LuaScript {

    private final String name;
    private final String source;
    private final String sha;

    private LuaScript(String name, String source, String sha) {
        this.name = name;
        this.source = source;
        this.sha = sha;
    }

    private static final String LIBRARY = "/lua/lib/ledger.lua";
    private static final String REFUSED = "FS_REFUSED";

    /** Reads {@code /lua/<name>.lua}, puts the shared library in front, and loads it into the server's cache. */
    public static LuaScript load(RedisCommands<String, String> redis, String name) {
        String source = readResource(LIBRARY) + "\n" + readResource("/lua/" + name + ".lua");
        return new LuaScript(name, source, redis.scriptLoad(source));
    }

    public <T> T run(RedisCommands<String, String> redis, ScriptOutputType type, String[] keys, String... args) {
        try {
            try {
                return redis.evalsha(sha, type, keys, args);
            } catch (RedisNoScriptException lostFromCache) {
                // SCRIPT LOAD of the same text yields the same SHA-1, so the retry runs exactly this script.
                redis.scriptLoad(source);
                return redis.evalsha(sha, type, keys, args);
            }
        } catch (RedisCommandExecutionException error) {
            String message = String.valueOf(error.getMessage());
            if (message.startsWith(REFUSED)) {
                throw new ScriptRefusedException(name, message.substring(REFUSED.length()).trim());
            }
            throw error;
        }
    }

    public String name() {
        return name;
    }

    public String sha() {
        return sha;
    }

    private static String readResource(String path) {
        try (InputStream in = LuaScript.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("script resource missing: " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read script " + path, e);
        }
    }
}
