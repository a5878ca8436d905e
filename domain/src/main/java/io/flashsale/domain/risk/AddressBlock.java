package io.flashsale.domain.risk;

import io.flashsale.domain.shared.InvalidValueException;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * A block of client addresses: an IPv4 or IPv6 address and a prefix length ({@code 203.0.113.0/24}, {@code 2001:db8::/32});
 * a bare address is a block of one (/32, /128). Parsed strictly, never by a name look-up: IPv4 as four decimal parts
 * without leading zeros, IPv6 as a literal with a colon (which the JDK never resolves). Held in its canonical form
 * (the network's first address), so one block has one spelling in the blocklist.
 */
public record AddressBlock(byte[] network, int prefix) {

    private static final Pattern IPV4 = Pattern.compile("(0|[1-9][0-9]{0,2})(\\.(0|[1-9][0-9]{0,2})){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]{2,45}");

    public AddressBlock {
        network = masked(network.clone(), prefix);
    }

    /** @throws InvalidValueException when the text is no address or block */
    public static AddressBlock parse(String text) {
        if (text == null || text.isEmpty() || text.length() > 49) {
            throw invalid();
        }
        int slash = text.indexOf('/');
        byte[] address = address(slash < 0 ? text : text.substring(0, slash));
        if (address == null) {
            throw invalid();
        }
        int prefix = address.length * 8;
        if (slash >= 0) {
            String bits = text.substring(slash + 1);
            if (!bits.matches("0|[1-9][0-9]{0,2}") || Integer.parseInt(bits) > prefix) {
                throw invalid();
            }
            prefix = Integer.parseInt(bits);
        }
        return new AddressBlock(address, prefix);
    }

    /**
     * The bytes of an address in the forms {@link #parse} takes (without a prefix), or null. IPv4-mapped IPv6
     * addresses come back as IPv4, as the JDK gives them.
     */
    public static byte[] address(String text) {
        if (text == null) {
            return null;
        }
        if (IPV4.matcher(text).matches()) {
            byte[] bytes = new byte[4];
            String[] parts = text.split("\\.");
            for (int i = 0; i < 4; i++) {
                int part = Integer.parseInt(parts[i]);
                if (part > 255) {
                    return null;
                }
                bytes[i] = (byte) part;
            }
            return bytes;
        }
        if (text.indexOf(':') >= 0 && IPV6.matcher(text).matches()) {
            try {
                return InetAddress.getByName(text).getAddress();
            } catch (UnknownHostException notAnAddress) {
                return null;
            }
        }
        return null;
    }

    /** Whether the address (as {@link #address} gives it) lies in this block; an address of the other family never. */
    public boolean contains(byte[] address) {
        if (address == null || address.length != network.length) {
            return false;
        }
        int full = prefix / 8;
        for (int i = 0; i < full; i++) {
            if (address[i] != network[i]) {
                return false;
            }
        }
        int rest = prefix % 8;
        if (rest == 0) {
            return true;
        }
        int mask = 0xFF << (8 - rest) & 0xFF;
        return (address[full] & mask) == (network[full] & 0xFF);
    }

    /** The canonical text: the network address and its prefix, e.g. {@code 203.0.113.0/24}. */
    public String text() {
        try {
            String address = InetAddress.getByAddress(network).getHostAddress();
            return address + "/" + prefix;
        } catch (UnknownHostException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof AddressBlock block && block.text().equals(text());
    }

    @Override
    public int hashCode() {
        return text().hashCode();
    }

    @Override
    public String toString() {
        return text();
    }

    private static byte[] masked(byte[] bytes, int prefix) {
        if (bytes.length != 4 && bytes.length != 16 || prefix < 0 || prefix > bytes.length * 8) {
            throw invalid();
        }
        for (int bit = prefix; bit < bytes.length * 8; bit++) {
            bytes[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
        }
        return bytes;
    }

    private static InvalidValueException invalid() {
        return new InvalidValueException("value", "must be an IPv4 or IPv6 address, optionally with a prefix length "
                + "(203.0.113.0/24, 2001:db8::/32)");
    }
}
