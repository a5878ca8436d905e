package io.flashsale.application.archfixture;

/** Breaks the rules on purpose: an out-port outside application.port.out. */
public interface StockCounter {

    long count();
}
