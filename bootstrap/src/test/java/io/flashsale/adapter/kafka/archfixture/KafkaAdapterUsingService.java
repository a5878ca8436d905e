package io.flashsale.adapter.kafka.archfixture;

import io.flashsale.application.sale.service.ActivityService;

/** Breaks the rules on purpose: an adapter calling a service instead of a port. */
public class KafkaAdapterUsingService {

    public ActivityService service;
}
