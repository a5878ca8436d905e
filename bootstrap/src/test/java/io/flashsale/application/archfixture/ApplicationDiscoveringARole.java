package io.flashsale.application.archfixture;

import io.flashsale.application.reconciliation.port.out.HotStoreReconciliationPort;
import io.flashsale.application.reconciliation.port.out.RelayedEventsPort;

/** Breaks the rules on purpose: looks behind one out-port for another instead of being handed it. */
public class ApplicationDiscoveringARole {

    public boolean exact(HotStoreReconciliationPort hotStore) {
        return hotStore instanceof RelayedEventsPort;
    }
}
