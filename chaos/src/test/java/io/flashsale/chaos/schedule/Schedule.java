package io.flashsale.chaos.schedule;

import java.util.List;
import java.util.stream.Collectors;

/** Everything a seed decides: the sale, every buyer's steps with their timings, and the faults with theirs. */
public record Schedule(long seed, SaleShape sale, int buyers, List<Operation> workload, List<Fault> faults,
                       long workloadMillis) {

    public Schedule {
        workload = List.copyOf(workload);
        faults = List.copyOf(faults);
    }

    public boolean mayLoseAcknowledged() {
        return faults.stream().anyMatch(fault -> fault.kind().mayLoseAcknowledged());
    }

    /** Failover schedules run in a campaign of their own (FailoverCampaignIT), which replays by its own property. */
    private String replayProperty() {
        boolean failover = faults.stream().anyMatch(fault -> fault.kind() == FaultKind.MASTER_FAILOVER);
        return failover ? "flashsale.failover.seed" : "flashsale.fault.seed";
    }

    public String describe() {
        return "seed %d (replay: -D%s=%d): %d SKUs %s%s, limit %d, %d buyers, %d steps over %d ms; faults %s"
                .formatted(seed, replayProperty(), seed, sale.skus().size(),
                        sale.skus().stream().map(sku -> sku.id() + "=" + sku.stock()
                                + (sku.ownLimit() > 0 ? "/limit " + sku.ownLimit() : ""))
                                .collect(Collectors.joining(", ", "[", "]")),
                        sale.slices() == 1 ? "" : " in " + sale.slices() + " slices", sale.perUserLimit(), buyers, workload.size(), workloadMillis, faults);
    }
}
