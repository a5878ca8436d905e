package io.flashsale.adapter.mysql;

import io.flashsale.application.sale.model.ActivityAlreadyExistsException;
import io.flashsale.application.sale.port.out.ActivityArchivesPort;
import io.flashsale.application.sale.port.out.ActivityCataloguePort;
import io.flashsale.application.sale.port.out.ActivityLoadsPort;
import io.flashsale.application.sale.port.out.ActivityLookupPort;
import io.flashsale.application.sale.port.out.ActivityRecord;
import io.flashsale.application.sale.port.out.ActivityRecordsPort;
import io.flashsale.application.sale.port.out.ActivityWindowsPort;
import io.flashsale.application.sale.port.out.RecordedLedgersPort;
import io.flashsale.application.sale.port.out.UnarchivedActivitiesPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.shared.InvalidValueException;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.transaction.support.TransactionOperations;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Activities in MySQL: an activity and its items are written in one transaction and change after only by an audited
 * stock adjustment (the item's stock) and the archive mark set once after the sale.
 */
public class MysqlActivityRepository implements ActivityCataloguePort, ActivityLookupPort, ActivityWindowsPort,
        ActivityArchivesPort, ActivityLoadsPort, RecordedLedgersPort, UnarchivedActivitiesPort, ActivityRecordsPort {

    /** The range of a DATETIME column on both MySQL and MariaDB. */
    private static final Instant EARLIEST = Instant.parse("1000-01-01T00:00:00Z");
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999Z");

    private final ActivityDao dao;
    private final ActivityRowMapper mapper;
    private final TransactionOperations transactions;

    MysqlActivityRepository(ActivityDao dao, ActivityRowMapper mapper, TransactionOperations transactions) {
        this.dao = dao;
        this.mapper = mapper;
        this.transactions = transactions;
    }

    @Override
    public void add(Activity activity) {
        ActivityRow row = mapper.toRow(activity);
        requireStorable(row);
        List<ActivityItemRow> items = mapper.toItemRows(activity);
        transactions.executeWithoutResult(status -> {
            insertActivity(row, activity.id());
            dao.insertItems(items);
        });
    }

    private static void requireStorable(ActivityRow row) {
        requireDatetimeRange(row.startsAt(), "startsAt");
        requireDatetimeRange(row.endsAt(), "endsAt");
        if (!row.endsAt().isAfter(row.startsAt())) {
            // Both ends fell into one millisecond, the finest time the table keeps.
            throw new InvalidValueException("endsAt", "must be at least one millisecond after startsAt");
        }
    }

    static void requireDatetimeRange(Instant instant, String field) {
        if (instant.isBefore(EARLIEST) || instant.isAfter(LATEST)) {
            throw new InvalidValueException(field, "must be between " + EARLIEST + " and " + LATEST);
        }
    }

    private void insertActivity(ActivityRow row, ActivityId id) {
        try {
            dao.insertActivity(row);
        } catch (DuplicateKeyException e) {
            // The primary key decides, so two concurrent adds of one id cannot both win.
            throw new ActivityAlreadyExistsException(id);
        }
    }

    @Override
    public Optional<Activity> findById(ActivityId activityId) {
        ActivityRow row = dao.selectActivity(activityId.value());
        if (row == null) {
            return Optional.empty();
        }
        return Optional.of(mapper.toActivity(row, dao.selectItems(activityId.value())));
    }

    /** Three queries for a sale not archived (the sale, its items, its archive mark), four once archived. */
    @Override
    public Optional<ActivityRecord> find(ActivityId activityId) {
        return ActivityRecord.read(this, activityId);
    }

    @Override
    public List<Activity> findUnarchivedOverlapping(Instant from, Instant to) {
        return dao.selectUnarchivedOverlapping(from, to).stream()
                .map(row -> mapper.toActivity(row, dao.selectItems(row.id())))
                .toList();
    }

    @Override
    public List<Activity> findUnarchived(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1");
        }
        return dao.selectUnarchived(limit).stream()
                .map(row -> mapper.toActivity(row, dao.selectItems(row.id())))
                .toList();
    }

    @Override
    public List<ActivityId> findEndedUnarchived(Instant now) {
        return dao.selectEndedUnarchivedIds(now).stream().map(ActivityId::new).toList();
    }

    @Override
    public Optional<Instant> archivedAt(ActivityId activityId) {
        return Optional.ofNullable(dao.selectArchive(activityId.value())).map(ArchiveRow::archivedAt);
    }

    @Override
    public boolean markArchived(ActivityId activityId, Instant at) {
        return dao.markArchived(activityId.value(), at) == 1;
    }

    @Override
    public void recordLoad(ActivityId activityId) {
        dao.recordLoad(activityId.value());
    }

    @Override
    public boolean wasLoaded(ActivityId activityId) {
        return dao.countLoads(activityId.value()) > 0;
    }

    @Override
    public Optional<List<SkuStock>> recordedStock(ActivityId activityId) {
        List<ItemStockRow> items = dao.selectItemStock(activityId.value());
        if (items.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(items.stream()
                .map(item -> new SkuStock(new SkuId(item.skuId()), new StockLedger(item.stock(), 0, item.sold())))
                .toList());
    }
}
