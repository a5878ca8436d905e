package io.flashsale.acceptance.steps;

import io.cucumber.java.ParameterType;

/** The words the features use for people, products and baskets. */
public class ParameterTypes {

    /** A named buyer, e.g. Alice; each scenario gives the name its own identity. */
    @ParameterType(name = "buyer", value = "[A-Z][a-z]+")
    public String buyer(String name) {
        return name;
    }

    @ParameterType(name = "product", value = "[a-z]+")
    public String product(String word) {
        return Basket.singular(word);
    }

    @ParameterType(name = "basket", value = "\\d+ [a-z]+(?: and \\d+ [a-z]+)*")
    public Basket basket(String text) {
        return Basket.parse(text);
    }
}
