package io.flashsale.application.reservation.service;

import io.flashsale.application.blocklist.port.out.BlocklistPort;
import io.flashsale.application.reservation.model.AttemptOrigin;
import io.flashsale.application.reservation.model.ReserveStockCommand;
import io.flashsale.application.reservation.port.out.DeviceSightingsPort;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationOutcome.Blocked.Refusal;
import io.flashsale.domain.risk.BlockKind;
import io.flashsale.domain.risk.Blocklist;

import java.lang.System.Logger.Level;
import java.util.Optional;

/**
 * The risk control asked first on every attempt, before anything costs a round trip (ADR 0081): the blocklist of
 * buyers, client addresses (and blocks) and devices, held in memory and read again from the database of record when a
 * change is announced and periodically ({@link #refresh}); then, when on, a device seen with more than
 * {@code maxBuyersPerDevice} buyers in its window is refused for the rest of that window.
 * <p>
 * A blocklist that cannot be read keeps the last one read: the control never stops the sale. Thread-safe.
 */
public final class RiskControl {

    private static final System.Logger LOG = System.getLogger(RiskControl.class.getName());

    private final BlocklistPort store;
    private final DeviceSightingsPort sightings;
    private final int maxBuyersPerDevice;
    private volatile Blocklist blocklist = Blocklist.empty();

    /**
     * @param sightings          the buyers each device was seen with lately; null with {@code maxBuyersPerDevice} 0
     * @param maxBuyersPerDevice how many distinct buyers one device may carry in its window; 0: no such limit
     */
    public RiskControl(BlocklistPort store, DeviceSightingsPort sightings, int maxBuyersPerDevice) {
        if (maxBuyersPerDevice < 0 || maxBuyersPerDevice > 0 && sightings == null) {
            throw new IllegalArgumentException("a device limit of " + maxBuyersPerDevice + " needs its sightings");
        }
        this.store = store;
        this.sightings = sightings;
        this.maxBuyersPerDevice = maxBuyersPerDevice;
    }

    /** Refuses nothing. */
    public static RiskControl none() {
        return new RiskControl(null, null, 0);
    }

    /** Empty when the attempt may go on; else {@code BLOCKED}, nothing deducted or recorded. */
    public Optional<ReservationOutcome> refusal(ReserveStockCommand command) {
        AttemptOrigin origin = command.origin();
        Optional<BlockKind> listed = blocklist.blocks(command.buyerId(), origin.address(), origin.device());
        if (listed.isPresent()) {
            return Optional.of(new ReservationOutcome.Blocked(switch (listed.get()) {
                case BUYER -> Refusal.BUYER;
                case ADDRESS -> Refusal.ADDRESS;
                case DEVICE -> Refusal.DEVICE;
            }));
        }
        if (maxBuyersPerDevice > 0 && origin.device() != null
                && sightings.buyersOf(origin.device(), command.buyerId(), maxBuyersPerDevice + 1) > maxBuyersPerDevice) {
            return Optional.of(new ReservationOutcome.Blocked(Refusal.SHARED_DEVICE));
        }
        return Optional.empty();
    }

    /**
     * Reads the blocklist from the database of record and holds it from now on; on failure keeps the one held and
     * answers false (the next announcement or periodic read tries again).
     */
    public boolean refresh() {
        if (store == null) {
            return true;
        }
        try {
            blocklist = Blocklist.of(store.entries());
            return true;
        } catch (RuntimeException unreadable) {
            LOG.log(Level.WARNING, "the blocklist could not be read; the last one read ({0} entries) stays: {1}",
                    blocklist.size(), unreadable.toString());
            return false;
        }
    }

    /** Entries held now. */
    public int held() {
        return blocklist.size();
    }
}
