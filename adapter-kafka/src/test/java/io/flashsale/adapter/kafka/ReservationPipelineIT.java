package io.flashsale.adapter.kafka;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.flashsale.application.order.port.out.DeadLetter;
import io.flashsale.application.order.port.out.DeadLetterPort;
import io.flashsale.application.order.port.out.EventPosition;
import io.flashsale.application.order.port.out.ReservationEventPublisherPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.testsupport.TestServices;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.test.utils.ContainerTestUtils;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The whole Kafka leg on a real broker and on Boot's own Kafka auto-configuration, the way bootstrap runs it:
 * publisher -> topic -> listener -> PlaceOrderBatchUseCase, with retries, the dead-letter topic and replay. The use
 * case is a scripted fake; what it does with a delivery (idempotence included) is the database's business.
 */
@SpringBootTest(classes = PipelineTestApplication.class)
@DirtiesContext
class ReservationPipelineIT {

    private static final String TOPIC = "reservations-it-" + UUID.randomUUID();
    private static final String DEAD_LETTER_TOPIC = TOPIC + ".DLT";
    private static final String GROUP = "orders-it-" + UUID.randomUUID();
    private static final int MAX_ATTEMPTS = 4;
    private static final Duration WITHIN = Duration.ofSeconds(30);

    private static Admin admin;

    @Autowired
    private ReservationEventPublisherPort publisher;
    @Autowired
    private DeadLetterPort deadLetters;
    @Autowired
    private KafkaTemplate<String, String> kafkaTemplate;
    @Autowired
    private ScriptedPlaceOrder orders;
    @Autowired
    private RecordingRetryListener retries;
    @Autowired
    private RecordingOrderPipelineMetrics metrics;
    @Autowired
    private ScriptedDatabaseProbe database;
    @Autowired
    private KafkaListenerEndpointRegistry listeners;

    private final ReservationMessageCodec codec = new ReservationMessageCodec();
    private final ActivityId activity = Reservations.newActivity();

    @DynamicPropertySource
    static void pipelineProperties(DynamicPropertyRegistry registry) {
        PipelineProperties.register(registry, TOPIC, GROUP, MAX_ATTEMPTS);
    }

    @BeforeAll
    static void openAdmin() {
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestServices.kafka().bootstrapServers()));
    }

    /**
     * Attempt numbers live with the consumer thread that owns a partition: a record that fails while the group is
     * still forming may be retried on another thread and counted from 1 again. Tests start on a settled group.
     */
    @BeforeEach
    void waitForEveryPartitionToBeAssigned() {
        ContainerTestUtils.waitForAssignment(listeners.getListenerContainer(ReservationOrderListener.LISTENER_ID), 3);
    }

    @AfterAll
    static void closeAdmin() {
        admin.close();
    }

    @Test
    void givenTheApplicationStarted_thenItCreatedTheTopicAndItsDeadLetterTopicWithThreePartitions() throws Exception {
        Map<String, TopicDescription> topics = admin.describeTopics(List.of(TOPIC, DEAD_LETTER_TOPIC)).allTopicNames().get();

        assertThat(topics.get(TOPIC).partitions()).hasSize(3);
        assertThat(topics.get(DEAD_LETTER_TOPIC).partitions()).hasSize(3);
    }

    @Test
    void givenPublishedReservations_whenConsumed_thenEachIsHandedOverOnceAndAllOffsetsAreCommitted() throws Exception {
        List<Reservation> reservations = IntStream.range(0, 30).mapToObj(i -> Reservations.reserved(activity)).toList();

        publisher.publish(reservations);
        Map<TopicPartition, Long> published = endOffsets();

        await().atMost(WITHIN).until(() -> committedUpTo(published));
        assertThat(orders.placed()).containsAll(reservations);
        assertThat(reservations).allSatisfy(reservation -> assertThat(orders.deliveriesOf(reservation.id())).isOne());
    }

    @Test
    void givenAReservationAcceptedFiveSecondsBeforeItWasPublished_whenSettled_thenTheBatchLineNamesThatWait() {
        Logger listenerLog = (Logger) LoggerFactory.getLogger(ReservationOrderListener.class);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        Level level = listenerLog.getLevel();
        listenerLog.setLevel(Level.DEBUG);
        listenerLog.addAppender(lines);
        try {
            Reservation template = Reservations.reserved(activity);
            Reservation reservation = new Reservation(template.id(), activity, template.buyerId(), template.requestId(),
                    template.lines(), template.status(), Instant.now().minusSeconds(5));

            EventPosition position = publisher.publishAt(List.of(reservation)).getFirst();

            // The batch that holds it may hold earlier records too: the longest wait is at least this one's.
            Pattern batchLine = Pattern.compile(Pattern.quote(TOPIC) + "-" + position.partition()
                    + "@(\\d+)\\.\\.(\\d+) in \\d+ ms \\(longest waits: (\\d+) ms in the outbox, ");
            Matcher waits = await().atMost(WITHIN).until(() -> logged(lines).stream()
                    .map(batchLine::matcher)
                    .filter(m -> m.find() && Long.parseLong(m.group(1)) <= position.offset()
                            && position.offset() <= Long.parseLong(m.group(2)))
                    .findFirst(), Optional::isPresent).orElseThrow();
            assertThat(Long.parseLong(waits.group(3))).isGreaterThanOrEqualTo(5_000L);
        } finally {
            listenerLog.detachAppender(lines);
            listenerLog.setLevel(level);
        }
    }

    @Test
    void givenTheSameEventPublishedTwice_whenConsumed_thenItIsHandedOverTwice() throws Exception {
        Reservation reservation = Reservations.reserved(activity);

        publisher.publish(List.of(reservation, reservation));
        Map<TopicPartition, Long> published = endOffsets();

        await().atMost(WITHIN).until(() -> committedUpTo(published));
        assertThat(orders.deliveriesOf(reservation.id())).isEqualTo(2);
    }

    @Test
    void givenAnOrderStillBeingPlaced_whenTheListenerWaitsForIt_thenItsOffsetIsCommittedOnlyAfterPlaceOrderReturned()
            throws Exception {
        Reservation reservation = Reservations.reserved(activity);
        CountDownLatch release = orders.holdDeliveries(reservation.id());

        RecordMetadata sent = send(reservation.id().value(), codec.encode(reservation));
        var partition = new TopicPartition(sent.topic(), sent.partition());
        await().atMost(WITHIN).until(() -> orders.deliveriesOf(reservation.id()) == 1);

        await().during(Duration.ofMillis(700)).atMost(WITHIN)
                .until(() -> committedOffset(partition) <= sent.offset());
        release.countDown();
        await().atMost(WITHIN).until(() -> committedOffset(partition) > sent.offset());
        assertThat(orders.placementsOf(reservation.id())).isOne();
    }

    @Test
    void givenTwoTransientFailures_whenConsumed_thenTheThirdDeliveryPlacesTheOrderAndItsOffsetIsCommitted() {
        Reservation reservation = Reservations.reserved(activity);
        orders.failNextDeliveries(reservation.id(), 2);

        publisher.publish(List.of(reservation));

        await().atMost(WITHIN).until(() -> orders.placementsOf(reservation.id()) == 1);
        assertThat(orders.deliveriesOf(reservation.id())).isEqualTo(3);
        List<RecordingRetryListener.FailedDelivery> failures = retries.failuresOf(reservation.id().value());
        // [1, 2] on one consumer thread. A rebalance between the two failures (a consumer thread late with its
        // heartbeat on a loaded machine, after the group had settled) hands the partition to a thread whose failure
        // tracker starts again: [1, 1]. The record is still retried in place, never skipped or dead-lettered.
        List<Integer> attempts = failures.stream().map(RecordingRetryListener.FailedDelivery::attempt).toList();
        assertThat(attempts).as("the failed deliveries' attempt numbers").isIn(List.of(1, 2), List.of(1, 1));
        var failed = failures.getFirst();
        await().atMost(WITHIN).until(() -> committedOffset(failed.partition()) > failed.offset());
        assertThat(retries.deadLetteredCount(reservation.id().value())).isZero();
        assertThat(metrics.deadLetteredCount(reservation.id().value())).isZero();
    }

    @Test
    void givenAnEventThatAlwaysFails_whenConsumed_thenItGoesToTheDeadLetterTopicAfterTheLastAttemptWithTheError() {
        Reservation reservation = Reservations.reserved(activity);
        orders.failEveryDelivery(reservation.id());
        Instant before = Instant.now().minusSeconds(1);

        publisher.publish(List.of(reservation));

        DeadLetter deadLetter = awaitDeadLetter(reservation.id().value());
        assertThat(orders.deliveriesOf(reservation.id())).isEqualTo(MAX_ATTEMPTS);
        assertThat(retries.failuresOf(reservation.id().value()))
                .extracting(RecordingRetryListener.FailedDelivery::attempt).containsExactly(1, 2, 3, 4);
        assertThat(retries.deadLetteredCount(reservation.id().value())).isOne();
        await().atMost(WITHIN).until(() -> metrics.deadLetteredCount(reservation.id().value()) == 1);
        assertThat(deadLetter.error()).contains("database down for " + reservation.id());
        assertThat(codec.decode(deadLetter.payload())).isEqualTo(reservation);
        assertThat(deadLetter.failedAt()).isBetween(before, Instant.now().plusSeconds(1));
        assertThat(deadLetters.find(deadLetter.id())).contains(deadLetter);
        var failed = retries.failuresOf(reservation.id().value()).getFirst();
        await().atMost(WITHIN).until(() -> committedOffset(failed.partition()) > failed.offset());
    }

    /**
     * ADR 78: the database out of reach for far longer than the attempts last (4 attempts within well under a second
     * here): the container holds its partitions while the probe says no, takes no delivery meanwhile, and places the
     * order once the database answers; nothing is dead-lettered.
     */
    @Test
    void givenTheDatabaseOutLongerThanTheAttempts_whenItAnswersAgain_thenTheOrderIsPlacedAndNothingIsDeadLettered()
            throws Exception {
        Reservation reservation = Reservations.reserved(activity);
        int waitsBefore = metrics.storeWaits();
        database.answering(false);
        orders.databaseOut(true);
        try {
            publisher.publish(List.of(reservation));
            await().atMost(WITHIN).until(() -> orders.deliveriesOf(reservation.id()) >= 1);
            int askedAtFirst = database.asked();
            await().atMost(WITHIN).until(() -> database.asked() >= askedAtFirst + 5);
            long heldDeliveries = orders.deliveriesOf(reservation.id());
            Thread.sleep(1_000);
            assertThat(orders.deliveriesOf(reservation.id())).as("no delivery while the database does not answer")
                    .isEqualTo(heldDeliveries).isLessThan(MAX_ATTEMPTS);
        } finally {
            orders.databaseOut(false);
            database.answering(true);
        }

        await().atMost(WITHIN).until(() -> orders.placementsOf(reservation.id()) == 1);
        assertThat(metrics.storeWaits() - waitsBefore).as("attempts that waited for the stores").isPositive();
        assertThat(retries.deadLetteredCount(reservation.id().value())).isZero();
        assertThat(metrics.deadLetteredCount(reservation.id().value())).isZero();
        var failed = retries.failuresOf(reservation.id().value()).getFirst();
        await().atMost(WITHIN).until(() -> committedOffset(failed.partition()) > failed.offset());
        assertThat(deadLetters.list(1000)).extracting(DeadLetter::reservationId)
                .doesNotContain(reservation.id().value());
    }

    /**
     * A poison event among neighbours fails the whole batch without an index: only it is dead-lettered, after its
     * attempts, and every neighbour becomes an order once, none dead-lettered.
     */
    @Test
    void givenAPoisonEventAmongNeighbours_whenTheBatchFails_thenOnlyThePoisonIsDeadLettered() {
        Reservation poison = Reservations.reserved(activity);
        List<Reservation> neighbours = IntStream.range(0, 6).mapToObj(i -> Reservations.reserved(activity)).toList();
        orders.poison(poison.id());
        List<Reservation> all = new ArrayList<>(neighbours);
        all.add(3, poison);

        publisher.publish(all);

        DeadLetter deadLetter = awaitDeadLetter(poison.id().value());
        assertThat(deadLetter.error()).contains("poison");
        // A neighbour after the poison may be delivered again with it; placing is idempotent in the real database.
        await().atMost(WITHIN).until(() -> neighbours.stream().allMatch(n -> orders.placementsOf(n.id()) >= 1));
        assertThat(orders.placementsOf(poison.id())).isZero();
        assertThat(retries.failuresOf(poison.id().value())).hasSize(MAX_ATTEMPTS);
        neighbours.forEach(n -> assertThat(retries.deadLetteredCount(n.id().value())).as(n.id().value()).isZero());
        assertThat(deadLetters.list(1000)).extracting(DeadLetter::reservationId)
                .containsOnlyOnce(poison.id().value())
                .doesNotContainAnyElementsOf(neighbours.stream().map(n -> n.id().value()).toList());
    }

    /** Lock contention is a store's verdict too: more lost locks than the attempts, and still placed, not dead-lettered. */
    @Test
    void givenMoreLostLocksThanTheAttempts_whenConsumed_thenTheOrderIsPlacedAndNothingIsDeadLettered() {
        Reservation reservation = Reservations.reserved(activity);
        orders.contendedForNextDeliveries(reservation.id(), MAX_ATTEMPTS + 2);

        publisher.publish(List.of(reservation));

        await().atMost(WITHIN).until(() -> orders.placementsOf(reservation.id()) == 1);
        assertThat(orders.deliveriesOf(reservation.id())).isEqualTo(MAX_ATTEMPTS + 3);
        assertThat(retries.deadLetteredCount(reservation.id().value())).isZero();
        assertThat(metrics.deadLetteredCount(reservation.id().value())).isZero();
    }

    /** An outage, then a failure of the event itself: the bounded attempts start afresh and it is dead-lettered. */
    @Test
    void givenAnOutageThenAPoison_whenConsumed_thenThePoisonIsStillDeadLettered() {
        Reservation reservation = Reservations.reserved(activity);
        orders.unavailableForNextDeliveries(reservation.id(), 3);
        orders.poison(reservation.id());

        publisher.publish(List.of(reservation));

        DeadLetter deadLetter = awaitDeadLetter(reservation.id().value());
        assertThat(deadLetter.error()).contains("poison");
        assertThat(orders.deliveriesOf(reservation.id())).isGreaterThanOrEqualTo(3 + MAX_ATTEMPTS);
        assertThat(orders.placementsOf(reservation.id())).isZero();
    }

    @Test
    void givenAMalformedPayload_whenConsumed_thenItGoesToTheDeadLetterTopicWithoutARetry() throws Exception {
        String key = activity.value() + ".malformed" + UUID.randomUUID().toString().substring(0, 8);

        send(key, "{\"reservationId\": \"cut off");

        DeadLetter deadLetter = awaitDeadLetter(key);
        assertThat(retries.failuresOf(key)).extracting(RecordingRetryListener.FailedDelivery::attempt).containsExactly(1);
        assertThat(retries.deadLetteredCount(key)).isOne();
        await().atMost(WITHIN).until(() -> metrics.deadLetteredCount(key) == 1);
        assertThat(deadLetter.payload()).isEqualTo("{\"reservationId\": \"cut off");
        assertThat(deadLetter.error()).contains("unreadable reservation message");
    }

    @Test
    void givenADeadLetter_whenReplayedAfterTheCauseWasFixed_thenTheListenerPlacesTheOrder() {
        Reservation reservation = Reservations.reserved(activity);
        orders.failEveryDelivery(reservation.id());
        publisher.publish(List.of(reservation));
        DeadLetter deadLetter = awaitDeadLetter(reservation.id().value());

        orders.stopFailing(reservation.id());
        deadLetters.replay(deadLetter);

        await().atMost(WITHIN).until(() -> orders.placementsOf(reservation.id()) == 1);
        assertThat(orders.deliveriesOf(reservation.id())).isEqualTo(MAX_ATTEMPTS + 1);
    }

    @Test
    void givenSeveralDeadLetters_whenListed_thenOldestFirstAndNoMoreThanAskedFor() throws Exception {
        for (int i = 0; i < 3; i++) {
            String key = activity.value() + ".listed" + i;
            send(key, "not json " + i);
            awaitDeadLetter(key);
        }

        List<DeadLetter> all = deadLetters.list(1000);
        List<DeadLetter> oldestTwo = deadLetters.list(2);

        assertThat(all).hasSizeGreaterThanOrEqualTo(3);
        assertThat(all).isSortedAccordingTo(Comparator.comparing(DeadLetter::failedAt));
        assertThat(oldestTwo).containsExactlyElementsOf(all.subList(0, 2));
        assertThat(all).extracting(DeadLetter::id).doesNotHaveDuplicates();
    }

    @Test
    void givenAnIdThatIsNoDeadLetter_whenLookedUp_thenThereIsNone() {
        assertThat(deadLetters.find("0-999999")).isEmpty();
        assertThat(deadLetters.find("99-0")).isEmpty();
        assertThat(deadLetters.find("not-an-id")).isEmpty();
    }

    /** The appender takes events under its own lock (AppenderBase.doAppend), so the copy is taken under it too. */
    private static List<String> logged(ListAppender<ILoggingEvent> appender) {
        synchronized (appender) {
            return appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        }
    }

    private DeadLetter awaitDeadLetter(String reservationId) {
        return await().atMost(WITHIN).until(() -> deadLetters.list(1000).stream()
                .filter(deadLetter -> reservationId.equals(deadLetter.reservationId()))
                .findFirst(), Optional::isPresent).orElseThrow();
    }

    private RecordMetadata send(String key, String payload) throws Exception {
        return kafkaTemplate.send(TOPIC, key, payload).get().getRecordMetadata();
    }

    private static Map<TopicPartition, Long> endOffsets() throws Exception {
        Map<TopicPartition, OffsetSpec> latest = IntStream.range(0, 3).boxed()
                .collect(Collectors.toMap(p -> new TopicPartition(TOPIC, p), p -> OffsetSpec.latest()));
        return admin.listOffsets(latest).all().get().entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, entry -> entry.getValue().offset()));
    }

    /** Whether the group committed every partition up to the given offsets (a partition never written needs none). */
    private static boolean committedUpTo(Map<TopicPartition, Long> offsets) throws Exception {
        Map<TopicPartition, Long> committed = committedOffsets();
        return offsets.entrySet().stream()
                .allMatch(end -> committed.getOrDefault(end.getKey(), 0L) >= end.getValue());
    }

    private static Map<TopicPartition, Long> committedOffsets() throws Exception {
        return admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata().get().entrySet().stream()
                .filter(entry -> entry.getValue() != null)
                .collect(Collectors.toMap(Map.Entry::getKey, entry -> entry.getValue().offset()));
    }

    private static long committedOffset(TopicPartition partition) throws Exception {
        return Optional.ofNullable(committedOffsets().get(partition)).orElse(-1L);
    }
}
