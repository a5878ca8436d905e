package io.flashsale.domain.archfixture;

import org.springframework.util.StringUtils;

/** Breaks the rules on purpose: a domain class that uses Spring. */
public class DomainUsingSpring {

    public boolean named(String name) {
        return StringUtils.hasText(name);
    }
}
