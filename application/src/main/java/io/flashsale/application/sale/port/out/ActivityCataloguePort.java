package io.flashsale.application.sale.port.out;

import io.flashsale.application.sale.model.ActivityAlreadyExistsException;
import io.flashsale.domain.activity.Activity;

/** Adds sales to the database of record's catalogue. */
public interface ActivityCataloguePort {

    /** @throws ActivityAlreadyExistsException when the id is taken */
    void add(Activity activity);
}
