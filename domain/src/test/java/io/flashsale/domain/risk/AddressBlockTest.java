package io.flashsale.domain.risk;

import io.flashsale.domain.shared.InvalidValueException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AddressBlockTest {

    @ParameterizedTest
    @CsvSource({
            "203.0.113.7, 203.0.113.7/32",
            "203.0.113.7/24, 203.0.113.0/24",
            "10.1.2.3/8, 10.0.0.0/8",
            "0.0.0.0/0, 0.0.0.0/0",
            "198.51.100.200/30, 198.51.100.200/30",
            "198.51.100.203/30, 198.51.100.200/30",
            "2001:db8::1, 2001:db8:0:0:0:0:0:1/128",
            "2001:DB8:abcd:12::/48, 2001:db8:abcd:0:0:0:0:0/48"})
    void aBlockIsHeldAsItsNetworkAndPrefix(String text, String canonical) {
        assertThat(AddressBlock.parse(text).text()).isEqualTo(canonical);
        assertThat(AddressBlock.parse(text)).isEqualTo(AddressBlock.parse(canonical));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "203.0.113", "203.0.113.256", "203.0.113.07", "203.0.113.7/33", "203.0.113.7/",
            "203.0.113.7/-1", "203.0.113.7/08", "2001:db8::/129", "example.com", "localhost", "1.2.3.4.5",
            "::ffff:zz", "203.0.113.7/24/1", " 203.0.113.7"})
    void anythingElseIsRefusedWithoutANameLookUp(String text) {
        assertThatThrownBy(() -> AddressBlock.parse(text)).isInstanceOf(InvalidValueException.class);
    }

    @Test
    void aBlockContainsTheAddressesOfItsPrefixOnlyAndOfItsFamilyOnly() {
        AddressBlock block = AddressBlock.parse("198.51.100.0/22");
        assertThat(block.contains(AddressBlock.address("198.51.100.0"))).isTrue();
        assertThat(block.contains(AddressBlock.address("198.51.103.255"))).isTrue();
        assertThat(block.contains(AddressBlock.address("198.51.104.0"))).isFalse();
        assertThat(block.contains(AddressBlock.address("198.51.99.255"))).isFalse();
        assertThat(block.contains(AddressBlock.address("::ffff:198.51.100.1"))).isTrue();
        assertThat(block.contains(AddressBlock.address("2001:db8::1"))).isFalse();
        assertThat(block.contains(null)).isFalse();
        assertThat(AddressBlock.parse("0.0.0.0/0").contains(AddressBlock.address("203.0.113.9"))).isTrue();
        assertThat(AddressBlock.parse("2001:db8::/32").contains(AddressBlock.address("2001:db8:ffff::1"))).isTrue();
        assertThat(AddressBlock.parse("2001:db8::/32").contains(AddressBlock.address("2001:db9::1"))).isFalse();
    }
}
