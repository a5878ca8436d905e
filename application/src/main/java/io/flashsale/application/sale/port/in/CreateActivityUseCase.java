package io.flashsale.application.sale.port.in;

import io.flashsale.application.sale.model.ActivityAlreadyExistsException;
import io.flashsale.application.sale.model.CreateActivityCommand;
import io.flashsale.domain.activity.Activity;

public interface CreateActivityUseCase {

    /** @throws ActivityAlreadyExistsException when the id is taken */
    Activity create(CreateActivityCommand command);
}
