package io.flashsale.adapter.redis;

import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.StockTransfer;
import io.flashsale.domain.slice.TransferState;

import java.util.ArrayList;
import java.util.List;

/**
 * The stock transfer steps a rebuilt slice has made by the database's rows (ADR 111), as the marks the steps
 * themselves leave in the slice's stock hash: the take of every transfer from it that is TAKEN or DONE
 * ({@code <sku>:xout:<id>}, what it gave), the credit of every DONE transfer to it ({@code <sku>:xin:<id>}, what it
 * got). With them, a step that reaches the rebuilt slice late finds its mark and changes nothing.
 */
final class TransferSteps {

    private TransferSteps() {
    }

    /** The marks as {@code rebuild_finish.lua} takes them: their count, then each field with its units. */
    static List<String> madeBy(SaleSlice slice, List<StockTransfer> transfers) {
        List<String> marks = new ArrayList<>();
        for (StockTransfer transfer : transfers) {
            if (!transfer.activityId().equals(slice.activityId())) {
                continue;
            }
            if (transfer.from() == slice.index() && transfer.state() != TransferState.REQUESTED) {
                marks.add(RedisKeys.transferOutField(transfer.skuId(), transfer.id()));
                marks.add(Long.toString(transfer.moved()));
            } else if (transfer.to() == slice.index() && transfer.finished()) {
                marks.add(RedisKeys.transferInField(transfer.skuId(), transfer.id()));
                marks.add(Long.toString(transfer.moved()));
            }
        }
        marks.addFirst(Integer.toString(marks.size() / 2));
        return marks;
    }
}
