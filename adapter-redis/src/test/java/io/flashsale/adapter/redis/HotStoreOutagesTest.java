package io.flashsale.adapter.redis;

import io.flashsale.application.shared.port.out.StoreUnavailableException;
import io.lettuce.core.RedisBusyException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisLoadingException;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HotStoreOutagesTest {

    @Test
    void givenTheWaysRedisIsOutOfReach_whenClassified_thenEachIsAnOutage() {
        assertThat(HotStoreOutages.isOutage(new RedisConnectionException("Connection refused"))).isTrue();
        assertThat(HotStoreOutages.isOutage(new RedisCommandTimeoutException("Command timed out after 2 second(s)")))
                .isTrue();
        assertThat(HotStoreOutages.isOutage(new RedisException("Currently not connected. Commands are rejected.")))
                .isTrue();
        assertThat(HotStoreOutages.isOutage(new RedisException(new IOException("Connection reset by peer")))).isTrue();
        assertThat(HotStoreOutages.isOutage(new RedisLoadingException("LOADING Redis is loading the dataset")))
                .isTrue();
        assertThat(HotStoreOutages.isOutage(new RedisBusyException("BUSY Redis is busy running a script"))).isTrue();
    }

    @Test
    void givenAnAnswerRedisGaveOrABug_whenClassified_thenItIsNoOutage() {
        assertThat(HotStoreOutages.isOutage(new RedisCommandExecutionException("WRONGTYPE Operation against a key")))
                .isFalse();
        assertThat(HotStoreOutages.isOutage(new IllegalStateException("a bug"))).isFalse();
    }

    @Test
    void givenAPortWhoseRedisIsOut_whenCalled_thenStoreUnavailableAndOtherFailuresUnchanged() {
        Runnable down = () -> {
            throw new RedisConnectionException("Connection refused");
        };
        Runnable refused = () -> {
            throw new RedisCommandExecutionException("ERR FS_REFUSED a SKU repeats");
        };

        assertThatThrownBy(HotStoreOutages.translating(down)::run).isInstanceOf(StoreUnavailableException.class)
                .hasCauseInstanceOf(RedisConnectionException.class);
        assertThatThrownBy(HotStoreOutages.translating(refused)::run)
                .isInstanceOf(RedisCommandExecutionException.class);
    }
}
