package io.flashsale.application.port.in;

import io.flashsale.domain.activity.Activity;

public interface CreateActivityUseCase {

    /** @throws ActivityAlreadyExistsException when the id is taken */
    Activity create(CreateActivityCommand command);
}
