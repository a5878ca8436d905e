package io.flashsale.application.reservation.port.out;

/**
 * Tells every instance that units of an activity may be buyable again (a cancellation, an expiry, an adjustment, a
 * repair, a rebuild): what an instance remembered as sold out or over may no longer be.
 */
public interface StockReturnsPort {

    /** From now on, {@code listener} hears of every return, on this instance and on the others. */
    void subscribe(StockReturnListener listener);
}
