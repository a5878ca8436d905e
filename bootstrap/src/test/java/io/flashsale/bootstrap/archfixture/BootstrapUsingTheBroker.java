package io.flashsale.bootstrap.archfixture;

import kafka.archfixture.BrokerStandIn;

/** Breaks the rules on purpose: the Kafka broker's own classes outside the Kafka adapter. */
public class BootstrapUsingTheBroker {

    public BrokerStandIn broker;
}
