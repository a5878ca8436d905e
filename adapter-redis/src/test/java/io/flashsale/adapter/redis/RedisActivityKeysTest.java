package io.flashsale.adapter.redis;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** An archive deletes {@link RedisKeys#archiveKeys(ActivityId)}: a per-activity key missing there would outlive it. */
class RedisActivityKeysTest {

    private static final ActivityId ACTIVITY = new ActivityId("sale-7");

    @Test
    void everyKeyMadeFromAnActivityIdAloneIsAmongTheKeysAnArchiveDeletesOutboxFirst() throws Exception {
        List<Method> keyMethods = Arrays.stream(RedisKeys.class.getDeclaredMethods())
                .filter(method -> Modifier.isPublic(method.getModifiers()) && Modifier.isStatic(method.getModifiers()))
                .filter(method -> method.getReturnType() == String.class)
                .filter(method -> Arrays.equals(method.getParameterTypes(), new Class<?>[] {ActivityId.class}))
                // Written by the archive itself and deleted by the last page of its drop (ADR 0102).
                .filter(method -> !method.getName().equals("requestsDrop"))
                .toList();
        var keys = new ArrayList<String>();
        for (Method method : keyMethods) {
            keys.add((String) method.invoke(null, ACTIVITY));
        }

        assertThat(keys).hasSizeGreaterThanOrEqualTo(6);
        assertThat(RedisKeys.archiveKeys(ACTIVITY)).containsExactlyInAnyOrderElementsOf(keys)
                .startsWith(RedisKeys.outbox(ACTIVITY))
                .doesNotContain(RedisKeys.outboxActivities(), RedisKeys.requestsDrop(ACTIVITY));
        assertThat(RedisKeys.activityKeys(ACTIVITY)).as("what a rebuild drops keeps the recovery's mark")
                .doesNotContain(RedisKeys.recovery(ACTIVITY));
    }

    @Test
    void everyKeyOfTheActivityHasItsSlicesKey_slice0sTheActivitysOwn_andASliceArchivesEveryOneOfItsKeys()
            throws Exception {
        SaleSlice zero = new SaleSlice(ACTIVITY, 0, new SaleSlices(3));
        SaleSlice two = new SaleSlice(ACTIVITY, 2, new SaleSlices(3));
        var ofTwo = new ArrayList<String>();
        for (Method method : keyMethods(ActivityId.class)) {
            Method ofSlice = RedisKeys.class.getMethod(method.getName(), SaleSlice.class);
            assertThat(ofSlice.invoke(null, zero)).as(method.getName()).isEqualTo(method.invoke(null, ACTIVITY));
            if (!method.getName().equals("requestsDrop")) {
                ofTwo.add((String) ofSlice.invoke(null, two));
            }
        }

        assertThat(keyMethods(SaleSlice.class)).hasSameSizeAs(keyMethods(ActivityId.class));
        assertThat(RedisKeys.archiveKeys(two)).containsExactlyInAnyOrderElementsOf(ofTwo)
                .startsWith(RedisKeys.outbox(two));
        assertThat(RedisKeys.activityKeys(zero)).isEqualTo(RedisKeys.activityKeys(ACTIVITY));
    }

    /** The key methods made from one argument of this type alone. */
    private static List<Method> keyMethods(Class<?> from) {
        return Arrays.stream(RedisKeys.class.getDeclaredMethods())
                .filter(method -> Modifier.isPublic(method.getModifiers()) && Modifier.isStatic(method.getModifiers()))
                .filter(method -> method.getReturnType() == String.class)
                .filter(method -> Arrays.equals(method.getParameterTypes(), new Class<?>[] {from}))
                .filter(method -> !method.getName().equals("tag"))
                .toList();
    }
}
