package com.mysql.archfixture;

/** Stands in for a class of the MySQL driver (runtime scope, so not on the compile path) in the rule tests. */
public class DriverStandIn {
}
