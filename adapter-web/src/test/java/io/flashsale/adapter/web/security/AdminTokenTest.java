package io.flashsale.adapter.web.security;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AdminTokenTest {

    @Test
    void givenAToken_whenTheSameTextIsOffered_thenItMatches() {
        assertThat(AdminToken.of("s3cret-token").matches("s3cret-token")).isTrue();
    }

    @Test
    void givenAToken_whenAnythingElseIsOffered_thenItDoesNotMatch() {
        AdminToken token = AdminToken.of("s3cret-token");

        assertThat(token.matches(null)).isFalse();
        assertThat(token.matches("")).isFalse();
        assertThat(token.matches("s3cret")).isFalse();
        assertThat(token.matches("s3cret-token ")).isFalse();
        assertThat(token.matches("S3CRET-TOKEN")).isFalse();
    }

    @Test
    void givenABlankToken_whenMade_thenRefused() {
        assertThatThrownBy(() -> AdminToken.of(" ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AdminToken.of(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void whenGenerated_thenEachTokenIsNewAndFitsInAHeader() {
        String first = AdminToken.generate();
        String second = AdminToken.generate();

        assertThat(first).matches("[A-Za-z0-9_-]{43}").isNotEqualTo(second);
        assertThat(AdminToken.of(first).matches(first)).isTrue();
    }

    @Test
    void whenPrinted_thenTheSecretDoesNotShow() {
        assertThat(AdminToken.of("s3cret-token").toString()).doesNotContain("s3cret");
    }
}
