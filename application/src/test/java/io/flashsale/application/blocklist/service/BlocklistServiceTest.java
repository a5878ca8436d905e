package io.flashsale.application.blocklist.service;

import io.flashsale.application.blocklist.port.out.BlocklistChangesPort;
import io.flashsale.application.blocklist.port.out.BlocklistPort;
import io.flashsale.domain.risk.BlockEntry;
import io.flashsale.domain.risk.BlockKind;
import io.flashsale.domain.shared.InvalidValueException;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

/** Changes of the blocklist: stored (and audited by the store) first, announced only when something changed. */
class BlocklistServiceTest {

    private static final Instant NOW = Instant.parse("2026-12-05T00:30:00Z");

    private final BlocklistPort store = mock(BlocklistPort.class);
    private final BlocklistChangesPort changes = mock(BlocklistChangesPort.class);
    private final BlocklistService service = new BlocklistService(store, changes, Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void anAddressBlockIsStoredInItsCanonicalFormThenAnnounced() {
        when(store.add(any())).thenReturn(true);

        BlockEntry added = service.block(BlockKind.ADDRESS, "203.0.113.77/24", "scraper", "alice").orElseThrow();

        assertThat(added).isEqualTo(new BlockEntry(BlockKind.ADDRESS, "203.0.113.0/24", "scraper", "alice", NOW));
        var order = inOrder(store, changes);
        order.verify(store).add(added);
        order.verify(changes).announce();
    }

    @Test
    void aValueListedAlreadyChangesNothingAndIsNotAnnounced() {
        when(store.add(any())).thenReturn(false);

        assertThat(service.block(BlockKind.BUYER, "mallory", "again", "alice")).isEmpty();
        verify(changes, never()).announce();
    }

    @Test
    void anUnblockIsAnnouncedOnlyWhenTheValueWasListedInAnySpelling() {
        when(store.remove(BlockKind.ADDRESS, "198.51.100.0/24", "bob", NOW)).thenReturn(true);

        assertThat(service.unblock(BlockKind.ADDRESS, "198.51.100.9/24", "bob")).isTrue();
        assertThat(service.unblock(BlockKind.DEVICE, "unknown-device", "bob")).isFalse();
        verify(changes).announce();
    }

    @Test
    void aValueNotOfItsKindIsRefusedBeforeTheStore() {
        assertThatThrownBy(() -> service.block(BlockKind.ADDRESS, "10.0.0.1/33", "r", "op"))
                .isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> service.block(BlockKind.ADDRESS, "example.com", "r", "op"))
                .isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> service.block(BlockKind.BUYER, "no spaces", "r", "op"))
                .isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> service.unblock(BlockKind.DEVICE, "bad device!", "op"))
                .isInstanceOf(InvalidValueException.class);
        verifyNoInteractions(store, changes);
    }
}
