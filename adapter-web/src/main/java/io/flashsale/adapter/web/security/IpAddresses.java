package io.flashsale.adapter.web.security;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Strict parsing of textual IP addresses, never a name lookup: dotted-quad IPv4 (no leading zeros, no short forms)
 * and IPv6 literals. Answers the canonical form, or null for anything else.
 */
final class IpAddresses {

    private static final String OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])";
    private static final Pattern IPV4 = Pattern.compile(OCTET + "(?:\\." + OCTET + "){3}");
    /** Hex groups, colons and an optional dotted-quad tail; the JDK then checks the structure. */
    private static final Pattern IPV6_CHARACTERS = Pattern.compile("[0-9A-Fa-f:.]{2,45}");

    private IpAddresses() {
    }

    /** The address in canonical text (IPv6 in lower case, IPv4-mapped IPv6 as IPv4), or null when none. */
    static InetAddress parse(String text) {
        if (text == null) {
            return null;
        }
        String candidate = text.strip();
        if (IPV4.matcher(candidate).matches()) {
            return literal(candidate);
        }
        // A colon makes the JDK treat the text as an IPv6 literal: it never resolves a name for it.
        if (candidate.indexOf(':') >= 0 && IPV6_CHARACTERS.matcher(candidate).matches()) {
            return literal(candidate);
        }
        return null;
    }

    static String canonical(InetAddress address) {
        return address.getHostAddress().toLowerCase(Locale.ROOT);
    }

    private static InetAddress literal(String candidate) {
        try {
            return InetAddress.getByName(candidate);
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
