package io.flashsale.adapter.web;

import tools.jackson.databind.json.JsonMapper;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;

/**
 * Strong entity tags from what a body serializes to: two bodies get one tag only when they are the same bytes (up to
 * a 128-bit digest), so a client that holds the tag holds the body.
 */
public class ContentTags {

    private final JsonMapper json;

    public ContentTags(JsonMapper json) {
        this.json = json;
    }

    /** The quoted tag of {@code body} as JSON. */
    public String of(Object body) {
        byte[] digest = sha256().digest(json.writeValueAsBytes(body));
        return "\"" + Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(digest, 16)) + "\"";
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
