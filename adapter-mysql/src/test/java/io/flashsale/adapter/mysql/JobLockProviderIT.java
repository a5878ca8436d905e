package io.flashsale.adapter.mysql;

import io.flashsale.testsupport.TestServices;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import javax.sql.DataSource;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Defect 20 against the real server: the commit of a lock's taking reaches the database, and its answer is lost on the
 * way back (a connection wrapper commits, then fails as a cut link would). ShedLock alone reports the lock as not
 * taken while the row holds the job for this instance for {@code atMostFor}; {@link JobLockProvider} takes it.
 */
@SpringBootTest(classes = MysqlAdapterTestApplication.class)
@Timeout(60)
class JobLockProviderIT {

    private static final String DATABASE = TestServices.mariadb().freshDatabase("flashsale_it_job_lock");
    private static final Duration AT_MOST = Duration.ofMinutes(5);

    @Autowired
    DataSource dataSource;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestServices.mariadb().springDatasource(DATABASE).registerIn(registry);
    }

    @Test
    void givenTheAnswerToATakingLost_whenShedLockAloneTakesTheLock_thenItSaysNotTakenAndTheRowHoldsTheJobForMinutes() {
        String job = job();
        LosingLink link = new LosingLink(dataSource);
        LockProvider shedLockAlone = new JdbcTemplateLockProvider(JdbcTemplateLockProvider.Configuration.builder()
                .withJdbcTemplate(new JdbcTemplate(link.dataSource())).withTableName("job_lock")
                .withLockedByValue("alone").usingDbTime().build());
        releaseOnce(shedLockAlone, job);

        link.loseNextCommitAnswer();
        Optional<SimpleLock> lock = shedLockAlone.lock(config(job, Duration.ZERO));

        assertThat(link.lost()).as("a commit's answer was lost").isTrue();
        assertThat(lock).as("reported as not taken").isEmpty();
        assertThat(heldFor(job, "alone")).as("yet held in the table until atMostFor")
                .isGreaterThan(AT_MOST.minusSeconds(10));
    }

    @Test
    void givenTheAnswerToATakingLost_whenTheLockIsTaken_thenThisInstanceHoldsItAndGivesItBackToTheOthers() {
        String job = job();
        LosingLink link = new LosingLink(dataSource);
        JobLockProvider here = JobLockProvider.on(link.dataSource());
        JobLockProvider other = JobLockProvider.on(dataSource);
        releaseOnce(here, job);

        link.loseNextCommitAnswer();
        Optional<SimpleLock> lock = here.lock(config(job, Duration.ZERO));

        assertThat(link.lost()).as("a commit's answer was lost").isTrue();
        assertThat(lock).as("taken, its row given back and taken again").isPresent();
        assertThat(other.lock(config(job, Duration.ZERO))).as("held here meanwhile").isEmpty();
        lock.orElseThrow().unlock();
        Optional<SimpleLock> taken = other.lock(config(job, Duration.ZERO));
        assertThat(taken).as("the other instance takes the job once it is given back").isPresent();
        taken.orElseThrow().unlock();
    }

    @Test
    void givenAPassHereEndedWithinItsShortestHold_whenTheLockIsAskedForAgain_thenTheHoldStands() {
        String job = job();
        JobLockProvider here = JobLockProvider.on(dataSource);
        here.lock(config(job, Duration.ofMinutes(1))).orElseThrow().unlock();

        assertThat(here.lock(config(job, Duration.ofMinutes(1)))).isEmpty();
        assertThat(heldFor(job, here.holder())).isGreaterThan(Duration.ofSeconds(50));
    }

    @Test
    void givenAnotherInstanceHoldsTheLock_whenItIsAskedFor_thenRefusedAndItsRowUntouched() {
        String job = job();
        JobLockProvider here = JobLockProvider.on(dataSource);
        JobLockProvider other = JobLockProvider.on(dataSource);
        SimpleLock held = other.lock(config(job, Duration.ZERO)).orElseThrow();
        Map<String, Object> before = row(job);

        assertThat(here.lock(config(job, Duration.ZERO))).isEmpty();
        assertThat(row(job)).isEqualTo(before);
        held.unlock();
    }

    /** The lock's row exists, free: later takings update it, as every pass but a job's first does. */
    private static void releaseOnce(LockProvider locks, String job) {
        locks.lock(config(job, Duration.ZERO)).orElseThrow().unlock();
    }

    private static LockConfiguration config(String job, Duration atLeast) {
        return new LockConfiguration(Instant.now(), job, AT_MOST, atLeast);
    }

    private static String job() {
        return "job-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** How long the row still holds the job for {@code holder}, by the database's clock; zero for another holder. */
    private Duration heldFor(String job, String holder) {
        Long millis = new JdbcTemplate(dataSource).queryForObject("SELECT IF(locked_by = ?,"
                + " TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(3), lock_until) DIV 1000, 0) FROM job_lock WHERE name = ?",
                Long.class, holder, job);
        return Duration.ofMillis(millis == null ? 0 : Math.max(0, millis));
    }

    private Map<String, Object> row(String job) {
        return new JdbcTemplate(dataSource).queryForMap("SELECT * FROM job_lock WHERE name = ?", job);
    }

    /** Connections whose next commit, once asked for, is done by the server and then fails, as a lost answer would. */
    private static final class LosingLink {

        private final DataSource target;
        private final AtomicBoolean loseNext = new AtomicBoolean();
        private final AtomicBoolean lost = new AtomicBoolean();

        LosingLink(DataSource target) {
            this.target = target;
        }

        void loseNextCommitAnswer() {
            loseNext.set(true);
        }

        boolean lost() {
            return lost.get();
        }

        DataSource dataSource() {
            return (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{DataSource.class},
                    (proxy, method, arguments) -> {
                        Object answer = invoke(method, target, arguments);
                        return answer instanceof Connection connection ? losing(connection) : answer;
                    });
        }

        private Connection losing(Connection connection) {
            return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{Connection.class},
                    (proxy, method, arguments) -> {
                        Object answer = invoke(method, connection, arguments);
                        if (method.getName().equals("commit") && loseNext.compareAndSet(true, false)) {
                            lost.set(true);
                            throw new SQLException("Communications link failure: the commit's answer was lost",
                                    "08S01");
                        }
                        return answer;
                    });
        }

        private static Object invoke(java.lang.reflect.Method method, Object target, Object[] arguments)
                throws Throwable {
            try {
                return method.invoke(target, arguments);
            } catch (InvocationTargetException failed) {
                throw failed.getCause();
            }
        }
    }
}
