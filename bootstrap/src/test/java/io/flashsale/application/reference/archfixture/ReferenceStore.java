package io.flashsale.application.reference.archfixture;

/**
 * Stands for the in-memory reference store, which lives in application's test-jar (test scope only): a class of the
 * reference's package for an adapter fixture to lean on.
 */
public class ReferenceStore {
}
