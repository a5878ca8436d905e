package io.flashsale.adapter.web.security;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CrossSiteRequestFilterTest {

    @Test
    void fetchMetadataDecidesWhenSent() {
        assertThat(CrossSiteRequestFilter.isCrossSite("cross-site", null, "shop.example")).isTrue();
        assertThat(CrossSiteRequestFilter.isCrossSite("same-origin", "https://evil.example", "shop.example")).isFalse();
        assertThat(CrossSiteRequestFilter.isCrossSite("same-site", null, "shop.example")).isFalse();
        assertThat(CrossSiteRequestFilter.isCrossSite("none", null, "shop.example")).isFalse();
    }

    @Test
    void otherwiseTheOriginMustNameThisHostAndPort() {
        assertThat(CrossSiteRequestFilter.isCrossSite(null, "https://shop.example", "shop.example")).isFalse();
        assertThat(CrossSiteRequestFilter.isCrossSite(null, "https://shop.example:443", "Shop.Example")).isFalse();
        assertThat(CrossSiteRequestFilter.isCrossSite(null, "http://127.0.0.1:8080", "127.0.0.1:8080")).isFalse();
        assertThat(CrossSiteRequestFilter.isCrossSite(null, "http://127.0.0.1:8081", "127.0.0.1:8080")).isTrue();
        assertThat(CrossSiteRequestFilter.isCrossSite(null, "https://evil.example", "shop.example")).isTrue();
        assertThat(CrossSiteRequestFilter.isCrossSite(null, "null", "shop.example")).isTrue();
        assertThat(CrossSiteRequestFilter.isCrossSite(null, "not a uri", "shop.example")).isTrue();
    }

    @Test
    void aClientThatIsNoBrowserPasses() {
        assertThat(CrossSiteRequestFilter.isCrossSite(null, null, "shop.example")).isFalse();
        assertThat(CrossSiteRequestFilter.isCrossSite(null, null, null)).isFalse();
    }
}
