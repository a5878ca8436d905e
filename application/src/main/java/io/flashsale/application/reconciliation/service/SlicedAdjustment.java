package io.flashsale.application.reconciliation.service;

import io.flashsale.application.reconciliation.model.StockAdjustmentResult;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.reconciliation.ReconciliationReport;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SliceAdjustments;
import io.flashsale.domain.slice.StockTransfer;
import io.flashsale.domain.stock.LedgerAdjustment;
import io.flashsale.domain.stock.StockAdjustment;
import io.flashsale.domain.stock.StockLedger;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An audited stock adjustment of a sale in slices (ADR 112): each slice takes its part of it
 * ({@link SliceAdjustments#partOf}: its share of the new total less its share of the old), so every slice's allotment
 * stays its share of the SKU's stock with the transfers, and nothing per slice is recorded. Once the database recorded
 * it, each slice's part is applied once; a slice that has fewer units available than its part of a reduction takes is
 * brought them from the others by stock transfers (so the slices never hold less than they sold between them while
 * the sale as a whole has the units) and asked again; one that still refuses is reconciled from the database's truth,
 * as a whole sale whose hot store refused is.
 */
final class SlicedAdjustment {

    private final SlicedAdjustmentPorts ports;
    private final SkuReconciler reconciler;

    SlicedAdjustment(SlicedAdjustmentPorts ports, SkuReconciler reconciler) {
        this.ports = ports;
        this.reconciler = reconciler;
    }

    /**
     * Applies each slice's part of the recorded adjustment once. A slice that refused its part of a reduction (fewer
     * units available than it takes) is brought the units it lacks by stock transfers from the slices with the most
     * available, and asked again; one that still refuses, or lost the SKU, is reconciled from the database's truth.
     */
    StockAdjustmentResult.Adjusted apply(Activity activity, ActivityItem item, StockAdjustment adjustment) {
        Map<SaleSlice, LedgerAdjustment> answers = new LinkedHashMap<>();
        for (SaleSlice slice : activity.slices().of(activity.id())) {
            answers.put(slice, ports.hotStore().adjust(slice, item.skuId(), partOf(slice, adjustment),
                    adjustment.id()));
        }
        for (Map.Entry<SaleSlice, LedgerAdjustment> answer : answers.entrySet()) {
            SaleSlice slice = answer.getKey();
            if (answer.getValue() instanceof LedgerAdjustment.Refused refused
                    && bring(activity, item, slice, -partOf(slice, adjustment) - refused.available())) {
                answer.setValue(ports.hotStore().adjust(slice, item.skuId(), partOf(slice, adjustment),
                        adjustment.id()));
            }
        }
        List<ReconciliationReport> reports = new ArrayList<>();
        answers.forEach((slice, answer) -> {
            if (answer instanceof LedgerAdjustment.Refused || answer instanceof LedgerAdjustment.UnknownSku) {
                // It will never arrive by itself: the database's total, which includes it, is the truth now.
                reconciler.reconcile(new OneSlice(slice, ports.reconciling()), activity, item, Optional.empty(),
                        Set.of(adjustment.id()), new HashSet<>()).ifPresent(reports::add);
            }
        });
        ReconciliationReport telling = reports.stream().filter(report -> !report.isClean()).findFirst()
                .orElse(reports.isEmpty() ? null : reports.getFirst());
        return new StockAdjustmentResult.Adjusted(adjustment, summed(List.copyOf(answers.values())), telling);
    }

    private static long partOf(SaleSlice slice, StockAdjustment adjustment) {
        return SliceAdjustments.partOf(slice, adjustment.stockBefore(), adjustment.delta());
    }

    /**
     * Moves {@code units} of the SKU to the slice from the others, the one with the most available first.
     *
     * @return true when every unit arrived
     */
    private boolean bring(Activity activity, ActivityItem item, SaleSlice target, long units) {
        long missing = units;
        while (missing > 0) {
            SaleSlice donor = null;
            long most = 0;
            for (SaleSlice slice : activity.slices().of(activity.id())) {
                long available = slice.equals(target) ? 0 : ports.stock().available(slice, item.skuId()).orElse(0);
                if (available > most) {
                    donor = slice;
                    most = available;
                }
            }
            if (donor == null) {
                return false;
            }
            StockTransfer moved = ports.transfers().transfer(activity.id(), item.skuId(), donor.index(),
                    target.index(), Math.min(missing, most));
            if (!moved.finished() || moved.moved() == 0) {
                return false;
            }
            missing -= moved.moved();
        }
        return true;
    }

    /**
     * The slices' answers as one: the first that did not apply the part (a refusal before a lost SKU before a slice not
     * loaded), else the slices' ledgers summed, else applied before.
     */
    private static LedgerAdjustment summed(List<LedgerAdjustment> answers) {
        for (Class<?> worst : List.of(LedgerAdjustment.Refused.class, LedgerAdjustment.UnknownSku.class,
                LedgerAdjustment.NotLoaded.class)) {
            Optional<LedgerAdjustment> found = answers.stream().filter(worst::isInstance).findFirst();
            if (found.isPresent()) {
                return found.get();
            }
        }
        List<StockLedger> applied = answers.stream().filter(LedgerAdjustment.Applied.class::isInstance)
                .map(answer -> ((LedgerAdjustment.Applied) answer).ledger()).toList();
        if (applied.isEmpty()) {
            return new LedgerAdjustment.AlreadyApplied();
        }
        return new LedgerAdjustment.Applied(new StockLedger(applied.stream().mapToLong(StockLedger::total).sum(),
                applied.stream().mapToLong(StockLedger::reserved).sum(),
                applied.stream().mapToLong(StockLedger::sold).sum()));
    }
}
