package io.flashsale.application.sale.port.in;

import io.flashsale.application.sale.model.ActivityArchivedException;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.sale.model.MoveSaleWindowCommand;
import io.flashsale.domain.activity.SaleWindowChange;

/**
 * An operator extends, shortens or moves a sale's window (ADR 79), in the database of record and the hot store
 * together; the domain's {@link SaleWindowChange} says which moves are allowed.
 */
public interface MoveSaleWindowUseCase {

    /**
     * @return the sale with its new window as recorded, or why it was refused (nothing changed)
     * @throws ActivityNotFoundException when there is no such sale
     * @throws ActivityArchivedException when it was archived
     */
    SaleWindowChange move(MoveSaleWindowCommand command);
}
