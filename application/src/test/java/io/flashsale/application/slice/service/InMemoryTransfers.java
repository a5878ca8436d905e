package io.flashsale.application.slice.service;

import io.flashsale.application.shared.port.out.StoreUnavailableException;
import io.flashsale.application.slice.port.out.StockTransfersPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.slice.StockTransfer;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/** The transfers table as the database keeps it: ids in order, conditional steps; can fail the next advance. */
final class InMemoryTransfers implements StockTransfersPort {

    private final TreeMap<Long, StockTransfer> rows = new TreeMap<>();
    private int failNextAdvances;

    /** The next {@code count} advances throw as a database that did not answer (the step is not recorded). */
    void failNextAdvances(int count) {
        failNextAdvances = count;
    }

    private java.util.function.UnaryOperator<StockTransfer> anotherRunner;

    /**
     * Just before the next advance, another runner moves that row on ({@code step} from what the table holds), so the
     * advance finds a state other than the one it was read in.
     */
    void anotherRunnerStepsFirst(java.util.function.UnaryOperator<StockTransfer> step) {
        anotherRunner = step;
    }

    @Override
    public StockTransfer open(ActivityId activityId, SkuId skuId, int from, int to, long units, Instant at) {
        StockTransfer opened = StockTransfer.requested(rows.size() + 1L, activityId, skuId, from, to, units, at);
        rows.put(opened.id(), opened);
        return opened;
    }

    @Override
    public boolean advance(StockTransfer current, StockTransfer next) {
        if (failNextAdvances > 0) {
            failNextAdvances--;
            throw new StoreUnavailableException("database did not answer", null);
        }
        if (anotherRunner != null) {
            rows.put(current.id(), anotherRunner.apply(rows.get(current.id())));
            anotherRunner = null;
        }
        if (rows.get(current.id()).state() != current.state()) {
            return false;
        }
        rows.put(next.id(), next);
        return true;
    }

    @Override
    public Optional<StockTransfer> findById(long id) {
        return Optional.ofNullable(rows.get(id));
    }

    @Override
    public List<StockTransfer> unfinished(long afterId, int limit) {
        return rows.tailMap(afterId, false).values().stream().filter(t -> !t.finished()).limit(limit).toList();
    }

    @Override
    public List<StockTransfer> findByActivity(ActivityId activityId) {
        return new ArrayList<>(rows.values().stream().filter(t -> t.activityId().equals(activityId)).toList());
    }
}
