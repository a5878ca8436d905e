package io.flashsale.testsupport;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class FreePortsTest {

    @Test
    void givenManyRequests_thenEachPortIsBelowTheEphemeralRangeBindableAndGivenOnce() throws IOException {
        int ephemeralStart = FreePorts.ephemeralRangeStart();
        Set<Integer> ports = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            int port = FreePorts.next();
            assertThat(port).isBetween(20_000, ephemeralStart - 1);
            assertThat(ports.add(port)).as("port %d given twice", port).isTrue();
        }
        int last = FreePorts.next();
        try (ServerSocket bound = new ServerSocket(last, 1, InetAddress.getLoopbackAddress())) {
            assertThat(bound.getLocalPort()).isEqualTo(last);
        }
    }

    @Test
    void givenAPortSomeoneListensOn_thenItIsNeverGivenOut() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            for (int i = 0; i < 200; i++) {
                assertThat(FreePorts.next()).isNotEqualTo(taken.getLocalPort());
            }
        }
    }
}
