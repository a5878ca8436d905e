package io.flashsale.adapter.kafka;

import io.flashsale.application.order.model.OrderBatchFailedException;
import io.flashsale.application.order.port.in.PlaceOrderBatchUseCase;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.reservation.Reservation;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The order consumer: hands every poll's reservation events, as one batch, to {@link PlaceOrderBatchUseCase}. The
 * offsets of a poll are committed only after the batch returned (AckMode BATCH). How a failure is answered (ADR 78):
 * <ul>
 *   <li>a store out of reach or a lock lost ({@link StoreOutages}): the whole batch comes again once the database
 *   answers ({@link StoresUnavailableBatchException}), however long it is out; never dead-lettered;</li>
 *   <li>a record that cannot be decoded: the records before it are placed, and its index goes to the container's error
 *   handler ({@link ReservationListenerContainerSetup}), which commits those, dead-letters that one at once and
 *   delivers the rest again;</li>
 *   <li>any other failure of the batch: its reservations are placed one by one, so that only the one that fails by
 *   itself (a poison event) is named, retried a few times and dead-lettered; if each passes alone, the batch is
 *   done.</li>
 * </ul>
 * A delivery may repeat: placing orders is idempotent.
 *
 * <p>A group that has no committed offset yet starts at the earliest record, so events published before the
 * first consumer joined are not skipped; the listener never commits on its own (no auto-commit).
 */
public class ReservationOrderListener {

    public static final String LISTENER_ID = "flashsale-reservation-orders";

    private static final Logger LOG = LoggerFactory.getLogger(ReservationOrderListener.class);

    private final PlaceOrderBatchUseCase placeOrders;
    private final ReservationMessageCodec codec = new ReservationMessageCodec();
    private final String topic;
    private final String groupId;
    private final int concurrency;
    private final int maxPollRecords;

    /** @param maxPollRecords the largest batch: the consumer's {@code max.poll.records} */
    public ReservationOrderListener(PlaceOrderBatchUseCase placeOrders, String topic, String groupId,
                                    int concurrency, int maxPollRecords) {
        if (concurrency < 1 || maxPollRecords < 1) {
            throw new IllegalArgumentException("concurrency and max-poll-records must be positive");
        }
        this.maxPollRecords = maxPollRecords;
        this.placeOrders = placeOrders;
        this.topic = topic;
        this.groupId = groupId;
        this.concurrency = concurrency;
    }

    @KafkaListener(id = LISTENER_ID, idIsGroup = false, batch = "true",
            topics = "#{__listener.topic()}", groupId = "#{__listener.groupId()}",
            concurrency = "#{__listener.concurrency()}",
            containerPostProcessor = ReservationListenerContainerSetup.BEAN_NAME,
            properties = {"auto.offset.reset=earliest", "enable.auto.commit=false",
                    "max.poll.records=#{__listener.maxPollRecords()}"})
    public void onReservations(List<ConsumerRecord<String, String>> records) {
        List<Reservation> batch = new ArrayList<>(records.size());
        for (int index = 0; index < records.size(); index++) {
            ConsumerRecord<String, String> record = records.get(index);
            try {
                batch.add(codec.decode(record.value()));
            } catch (MalformedReservationMessageException malformed) {
                // Its neighbours before it are placed now, the ones after it are delivered again.
                place(records, batch);
                throw new UnplaceableReservationException(malformed.getMessage(), malformed, index);
            }
        }
        place(records, batch);
    }

    private void place(List<ConsumerRecord<String, String>> records, List<Reservation> batch) {
        if (batch.isEmpty()) {
            return;
        }
        long start = System.nanoTime();
        long startMillis = System.currentTimeMillis();
        List<OrderPlacement> placements;
        try {
            placements = placeOrders.placeOrders(batch);
        } catch (RuntimeException failed) {
            if (StoreOutages.isIn(failed)) {
                throw new StoresUnavailableBatchException(failed);
            }
            if (failed instanceof OrderBatchFailedException followUp) {
                throw new UnplaceableReservationException(followUp.getMessage(), followUp, followUp.index());
            }
            placements = placeOneByOne(batch, failed);
        }
        if (LOG.isDebugEnabled()) {
            ConsumerRecord<String, String> first = records.getFirst();
            ConsumerRecord<String, String> last = records.get(batch.size() - 1);
            LOG.debug("settled a batch of {} reservations from {}-{}@{}..{} in {} ms (longest waits: {} ms in the"
                            + " outbox, {} ms on the topic): {}", batch.size(), first.topic(), first.partition(),
                    first.offset(), last.offset(), (System.nanoTime() - start) / 1_000_000,
                    longestInOutbox(records, batch), longestOnTopic(records, batch.size(), startMillis),
                    outcomes(placements));
        }
    }

    /**
     * The batch failed, and not for want of a store: each reservation alone, so that the one that fails by itself is
     * the only one named (and, after its retries, dead-lettered). Those before it are placed; a store going out of
     * reach meanwhile holds the whole batch as above.
     */
    private List<OrderPlacement> placeOneByOne(List<Reservation> batch, RuntimeException batchFailure) {
        if (batch.size() == 1) {
            throw new UnplaceableReservationException("reservation " + batch.getFirst().id() + " cannot be placed: "
                    + batchFailure.getMessage(), batchFailure, 0);
        }
        List<OrderPlacement> placements = new ArrayList<>(batch.size());
        for (int index = 0; index < batch.size(); index++) {
            try {
                placements.addAll(placeOrders.placeOrders(List.of(batch.get(index))));
            } catch (RuntimeException failed) {
                if (StoreOutages.isIn(failed)) {
                    throw new StoresUnavailableBatchException(failed);
                }
                throw new UnplaceableReservationException("reservation " + batch.get(index).id() + " (" + index
                        + " of the batch) cannot be placed: " + failed.getMessage(), failed, index);
            }
        }
        LOG.warn("a batch of {} reservations failed ({}) but each was placed alone", batch.size(),
                batchFailure.toString());
        return placements;
    }

    /**
     * Where a reservation's time to its order went before this batch: from the hot store accepting it to the relay
     * publishing it (the record's create time, stamped by the relay's producer), then on the topic until this batch.
     */
    private static long longestInOutbox(List<ConsumerRecord<String, String>> records, List<Reservation> batch) {
        long longest = 0;
        for (int i = 0; i < batch.size(); i++) {
            longest = Math.max(longest, records.get(i).timestamp() - batch.get(i).reservedAt().toEpochMilli());
        }
        return longest;
    }

    private static long longestOnTopic(List<ConsumerRecord<String, String>> records, int size, long batchStart) {
        long longest = 0;
        for (int i = 0; i < size; i++) {
            longest = Math.max(longest, batchStart - records.get(i).timestamp());
        }
        return longest;
    }

    /** e.g. {Placed=498, AlreadyPlaced=2}, for the batch's debug line. */
    private static Map<String, Long> outcomes(List<OrderPlacement> placements) {
        Map<String, Long> counts = new TreeMap<>();
        placements.forEach(placement -> counts.merge(placement.getClass().getSimpleName(), 1L, Long::sum));
        return counts;
    }

    public String topic() {
        return topic;
    }

    public String groupId() {
        return groupId;
    }

    public String concurrency() {
        return Integer.toString(concurrency);
    }

    public String maxPollRecords() {
        return Integer.toString(maxPollRecords);
    }
}
