package io.flashsale.application.order.port.in;

public interface CompletePendingRestoresUseCase {

    /**
     * One pass of the repair sweep: gives back in the hot store the units of up to {@code max} orders that were
     * cancelled or expired in the database of record while the hot store could not take them (down, or not yet
     * told the order exists). Returns how many restores it finished. Throws when the hot store fails.
     */
    int completePendingRestores(int max);
}
