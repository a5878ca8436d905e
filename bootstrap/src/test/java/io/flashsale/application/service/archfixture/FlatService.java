package io.flashsale.application.service.archfixture;

/** Breaks the rules on purpose: a service in the flat service package, in no capability. */
public class FlatService {
}
