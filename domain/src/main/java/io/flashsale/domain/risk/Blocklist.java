package io.flashsale.domain.risk;

import io.flashsale.domain.reservation.BuyerId;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The blocklist as one immutable snapshot, asked on every attempt: a set look-up for buyers and devices, a walk over
 * the address blocks (few; an operator lists them by hand) for an address. An empty list answers at once.
 */
public final class Blocklist {

    private static final Blocklist EMPTY = new Blocklist(List.of());

    private final Set<String> buyers = new HashSet<>();
    private final Set<String> devices = new HashSet<>();
    private final List<AddressBlock> addresses = new ArrayList<>();
    private final int size;

    private Blocklist(List<BlockEntry> entries) {
        for (BlockEntry entry : entries) {
            switch (entry.kind()) {
                case BUYER -> buyers.add(entry.value());
                case DEVICE -> devices.add(entry.value());
                case ADDRESS -> addresses.add(AddressBlock.parse(entry.value()));
            }
        }
        this.size = entries.size();
    }

    public static Blocklist of(List<BlockEntry> entries) {
        return entries.isEmpty() ? EMPTY : new Blocklist(entries);
    }

    public static Blocklist empty() {
        return EMPTY;
    }

    /**
     * Which entry kind blocks an attempt, if any: the buyer's, then the address's, then the device's.
     *
     * @param address the client's address (IPv4 or IPv6 text); null when unknown, and an address that does not parse
     *                is in no block
     * @param device  the device id; null when none was reported
     */
    public Optional<BlockKind> blocks(BuyerId buyer, String address, DeviceId device) {
        if (size == 0) {
            return Optional.empty();
        }
        if (buyers.contains(buyer.value())) {
            return Optional.of(BlockKind.BUYER);
        }
        if (address != null && !addresses.isEmpty()) {
            byte[] bytes = AddressBlock.address(address);
            for (AddressBlock block : addresses) {
                if (block.contains(bytes)) {
                    return Optional.of(BlockKind.ADDRESS);
                }
            }
        }
        if (device != null && devices.contains(device.value())) {
            return Optional.of(BlockKind.DEVICE);
        }
        return Optional.empty();
    }

    public int size() {
        return size;
    }
}
