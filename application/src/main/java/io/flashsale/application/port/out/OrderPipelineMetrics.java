package io.flashsale.application.port.out;

import io.flashsale.domain.order.OrderPlacement;

/** What the order pipeline reports to operators: counts per placement kind, and a log line for every refusal. */
public interface OrderPipelineMetrics {

    void recorded(OrderPlacement placement);

    void relayed(int reservations);
}
