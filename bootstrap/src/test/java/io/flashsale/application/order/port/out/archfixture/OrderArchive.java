package io.flashsale.application.order.port.out.archfixture;

/** Breaks the rules on purpose: an out-port whose name does not end in Port. */
public interface OrderArchive {

    void archive(String reservationId);
}
