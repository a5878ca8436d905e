package io.flashsale.domain.archfixture;

import io.flashsale.application.sale.model.ActivityView;

/** Breaks the rules on purpose: the domain reaching up into the application layer. */
public class DomainUsingApplication {

    public ActivityView view;
}
