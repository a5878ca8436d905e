package kafka.archfixture;

/** Stands in for a class of the Kafka broker (Scala package {@code kafka..}) in the rule tests. */
public class BrokerStandIn {
}
