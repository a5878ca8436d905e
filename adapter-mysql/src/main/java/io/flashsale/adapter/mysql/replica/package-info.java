/**
 * Reads served by a read-only replica of the database of record when one is configured and current enough, by the
 * primary otherwise (ADR 86). Each routed adapter implements the same out-port as the primary's and writes only to
 * the primary; the application never knows a replica exists.
 */
package io.flashsale.adapter.mysql.replica;
