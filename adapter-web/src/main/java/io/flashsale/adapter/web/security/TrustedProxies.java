package io.flashsale.adapter.web.security;

import org.apache.catalina.valves.RemoteIpValve;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The proxies whose {@code X-Forwarded-For} the server believes, as CIDR blocks; none by default, so a client's own
 * header is never taken for its address. Applied to Tomcat's {@link RemoteIpValve} as CIDR blocks only: a bare address
 * becomes a /32 or /128 block, because the valve would read a text without a slash as a regular expression.
 */
public final class TrustedProxies {

    private final String property;
    private final List<String> blocks;

    private TrustedProxies(String property, List<String> blocks) {
        this.property = property;
        this.blocks = List.copyOf(blocks);
    }

    /** @param property the configuration property the entries came from, named in any refusal */
    public static TrustedProxies of(String property, List<String> entries) {
        List<String> blocks = new ArrayList<>();
        for (String entry : entries == null ? List.<String>of() : entries) {
            if (entry != null && !entry.isBlank()) {
                blocks.add(block(property, entry.strip()));
            }
        }
        return new TrustedProxies(property, blocks);
    }

    public List<String> blocks() {
        return blocks;
    }

    public boolean isEmpty() {
        return blocks.isEmpty();
    }

    /** Only connections from these blocks may set the client's address; no other proxy header is believed. */
    public void applyTo(RemoteIpValve valve) {
        valve.setInternalProxies(String.join(",", blocks));
        valve.setTrustedProxies("");
    }

    public String property() {
        return property;
    }

    private static String block(String property, String entry) {
        int slash = entry.indexOf('/');
        InetAddress address = IpAddresses.parse(slash < 0 ? entry : entry.substring(0, slash));
        if (address == null) {
            throw refused(property, entry);
        }
        int maximum = address instanceof Inet4Address ? 32 : 128;
        int bits = maximum;
        if (slash >= 0) {
            try {
                bits = Integer.parseInt(entry.substring(slash + 1));
            } catch (NumberFormatException e) {
                throw refused(property, entry);
            }
            if (bits < 0 || bits > maximum) {
                throw refused(property, entry);
            }
        }
        return IpAddresses.canonical(address) + "/" + bits;
    }

    private static IllegalArgumentException refused(String property, String entry) {
        return new IllegalArgumentException(property + ": '" + entry
                + "' is no IP address or CIDR block (e.g. 10.0.0.0/8, 192.0.2.7, 2001:db8::/32)");
    }
}
