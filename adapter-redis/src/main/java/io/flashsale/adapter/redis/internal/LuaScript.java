package io.flashsale.adapter.redis.internal;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * One script from {@code resources/lua/}, run by EVALSHA. The server's script cache can be emptied at any time
 * (restart, failover, SCRIPT FLUSH), and in a Redis Cluster each master has its own, so a NOSCRIPT answer runs the
 * script's text once by EVAL: routed by its keys to the same node as the EVALSHA, it also caches the script there.
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

    /** Reads {@code /lua/<name>.lua} and loads it into the server's script cache. */
    public static LuaScript load(RedisClusterCommands<String, String> redis, String name) {
        String source = readResource("/lua/" + name + ".lua");
        return new LuaScript(name, source, redis.scriptLoad(source));
    }

    public <T> T run(RedisClusterCommands<String, String> redis, ScriptOutputType type, String[] keys, String... args) {
        try {
            return redis.evalsha(sha, type, keys, args);
        } catch (RedisNoScriptException notInThisNodesCache) {
            // The text hashes to this SHA-1, so EVAL runs exactly the script EVALSHA asked for.
            return redis.eval(source, type, keys, args);
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
