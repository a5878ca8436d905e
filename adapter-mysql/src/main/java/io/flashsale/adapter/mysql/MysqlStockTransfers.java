package io.flashsale.adapter.mysql;

import io.flashsale.application.slice.port.out.StockTransfersPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.slice.StockTransfer;
import org.springframework.transaction.support.TransactionOperations;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * Stock transfers between a sale's slices in MySQL (ADR 109). A transfer is written before either slice moves a unit
 * and moves on only by a conditional update from the state its runner saw, so of racing runners one wins and the
 * others read what the database holds. Reads always go to the primary: a runner acts on what it reads.
 */
public class MysqlStockTransfers implements StockTransfersPort {

    private final StockTransferDao dao;
    private final StockTransferRowMapper mapper;
    private final TransactionOperations transactions;

    MysqlStockTransfers(StockTransferDao dao, StockTransferRowMapper mapper, TransactionOperations transactions) {
        this.dao = dao;
        this.mapper = mapper;
        this.transactions = transactions;
    }

    @Override
    public StockTransfer open(ActivityId activityId, SkuId skuId, int from, int to, long units, Instant at) {
        MysqlActivityRepository.requireDatetimeRange(at, "at");
        // Checked before it is written: the row says only what a transfer may say.
        StockTransfer unnumbered = StockTransfer.requested(0, activityId, skuId, from, to, units,
                at.truncatedTo(ChronoUnit.MILLIS));
        StockTransferRow row = mapper.toRow(unnumbered);
        // LAST_INSERT_ID is per connection: the insert and the read share one transaction's connection.
        long id = transactions.execute(status -> {
            dao.insertTransfer(row);
            return dao.selectLastInsertId();
        });
        return StockTransfer.requested(id, activityId, skuId, from, to, units, unnumbered.requestedAt());
    }

    @Override
    public boolean advance(StockTransfer current, StockTransfer next) {
        if (current.id() != next.id()) {
            throw new IllegalArgumentException("transfer " + current.id() + " cannot advance to transfer " + next.id());
        }
        if (next.state().compareTo(current.state()) <= 0) {
            // Only forward moves; a repeated state would also count as found by the driver and look like a win.
            throw new IllegalArgumentException("transfer " + current.id() + " cannot go from " + current.state()
                    + " to " + next.state());
        }
        return dao.advance(current.id(), current.state().name(), next.state().name(), next.moved()) == 1;
    }

    @Override
    public Optional<StockTransfer> findById(long id) {
        return Optional.ofNullable(dao.selectTransfer(id)).map(mapper::toTransfer);
    }

    @Override
    public List<StockTransfer> unfinished(long afterId, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1");
        }
        return dao.selectUnfinished(afterId, limit).stream().map(mapper::toTransfer).toList();
    }

    @Override
    public List<StockTransfer> findByActivity(ActivityId activityId) {
        return dao.selectByActivity(activityId.value()).stream().map(mapper::toTransfer).toList();
    }
}
