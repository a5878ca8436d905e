package io.flashsale.adapter.redis.internal;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * One script from {@code resources/lua/}, run by EVALSHA. The definitions of the shared library
 * {@code lua/lib/ledger.lua} that the script uses ({@link LuaLibrary}) are put in front of it before the SHA is taken,
 * so each script may call the library's functions. The server's script cache can
 * be emptied at any time (restart, failover, SCRIPT FLUSH), and in a Redis Cluster each master has its own, so a
 * NOSCRIPT answer runs the script's text once by EVAL: routed by its keys to the same node as the EVALSHA, it also
 * caches the script there. A script that refuses a move ({@code fs_refuse}) makes {@link #run} throw
 * {@link ScriptRefusedException}.
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

    private static final LuaLibrary LIBRARY = LuaLibrary.parse(readResource("/lua/lib/ledger.lua"));
    private static final String REFUSED = "FS_REFUSED";

    /**
     * Reads {@code /lua/<name>.lua}, puts the library's definitions it uses in front, and loads it into the server's cache when the
     * server answers. The SHA is the script's own SHA-1, so a service that starts while Redis is down still has every
     * script: the first EVALSHA after Redis is back meets NOSCRIPT and caches it by EVAL.
     */
    public static LuaScript load(RedisClusterCommands<String, String> redis, String name) {
        String script = readResource("/lua/" + name + ".lua");
        String source = LIBRARY.neededBy(script) + "\n" + script;
        String sha = sha1(source);
        try {
            redis.scriptLoad(source);
        } catch (RedisException notNow) {
            // Redis down or not reached yet: loaded on first use.
        }
        return new LuaScript(name, source, sha);
    }

    static String sha1(String source) {
        try {
            return HexFormat.of().formatHex(
                    MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-1", e);
        }
    }

    public <T> T run(RedisClusterCommands<String, String> redis, ScriptOutputType type, String[] keys, String... args) {
        try {
            try {
                return redis.evalsha(sha, type, keys, args);
            } catch (RedisNoScriptException notInThisNodesCache) {
                // The text hashes to this SHA-1, so EVAL runs exactly the script EVALSHA asked for.
                return redis.eval(source, type, keys, args);
            }
        } catch (RedisCommandExecutionException error) {
            throw refusedOrAsIs(error);
        }
    }

    /**
     * {@link #run} without waiting: the reply, or the failure {@link #run} would throw (a refusal as
     * {@link ScriptRefusedException}), completes the returned future on the client's I/O thread.
     */
    public <T> CompletableFuture<T> runAsync(RedisClusterAsyncCommands<String, String> redis, ScriptOutputType type,
                                             String[] keys, String... args) {
        return redis.<T>evalsha(sha, type, keys, args).toCompletableFuture()
                .exceptionallyCompose(failure -> cause(failure) instanceof RedisNoScriptException
                        ? redis.<T>eval(source, type, keys, args).toCompletableFuture()
                        : CompletableFuture.failedFuture(cause(failure)))
                .exceptionallyCompose(failure -> CompletableFuture.failedFuture(refusedOrAsIs(cause(failure))));
    }

    private RuntimeException refusedOrAsIs(Throwable failure) {
        if (failure instanceof RedisCommandExecutionException error) {
            String message = String.valueOf(error.getMessage());
            if (message.startsWith(REFUSED)) {
                return new ScriptRefusedException(name, message.substring(REFUSED.length()).trim());
            }
        }
        return failure instanceof RuntimeException runtime ? runtime : new RedisException(failure);
    }

    private static Throwable cause(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
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
