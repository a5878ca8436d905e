package io.flashsale.application.testing;

import io.flashsale.application.sale.port.out.ActivityArchivesPort;
import io.flashsale.application.sale.port.out.ActivityCataloguePort;
import io.flashsale.application.sale.port.out.ActivityLoadsPort;
import io.flashsale.application.sale.port.out.ActivityLookupPort;
import io.flashsale.application.sale.port.out.ActivityWindowsPort;
import io.flashsale.application.sale.port.out.RecordedLedgersPort;
import io.flashsale.application.sale.port.out.UnarchivedActivitiesPort;

/**
 * Every role of the database of record's sales, as the MySQL adapter plays them all: one mock a test can stub for
 * whichever roles the service under test is handed.
 */
public interface ActivityStore extends ActivityCataloguePort, ActivityLookupPort, ActivityWindowsPort,
        ActivityArchivesPort, ActivityLoadsPort, RecordedLedgersPort, UnarchivedActivitiesPort {
}
