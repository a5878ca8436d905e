/**
 * Redis and MariaDB from binaries packaged in Maven artifacts, for a machine with only a JDK: the service's demo
 * mode and the test servers' third source. Production configures real servers and never reaches this code.
 */
package io.flashsale.embedded;
