package io.flashsale.adapter.mysql;

import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

import javax.sql.DataSource;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The scheduled jobs' locks (ShedLock) in {@code job_lock}, timed by the database's clock, and a taking whose answer
 * was lost. ShedLock reports a lock as not taken when the commit of its taking fails; when only the commit's answer
 * was lost (the link cut in that moment), the row holds the job for this instance until {@code atMostFor} runs out
 * (5 minutes), and every instance skipped the job that long (defect 20). A refused lock whose row names this instance
 * beyond the shortest hold from now is such a taking: no pass here holds it, so it is given back and taken again.
 */
final class JobLockProvider implements LockProvider {

    private static final Logger LOG = LoggerFactory.getLogger(JobLockProvider.class);

    /** Only a row held past the shortest hold from now: a taking (atMostFor), never a finished pass's atLeastFor. */
    private static final String GIVE_BACK_UNHEARD = "UPDATE job_lock SET lock_until = UTC_TIMESTAMP(3)"
            + " WHERE name = ? AND locked_by = ? AND lock_until > TIMESTAMPADD(MICROSECOND, ?, UTC_TIMESTAMP(3))";

    private final LockProvider shedLock;
    private final JdbcTemplate jdbc;
    private final String holder;

    private JobLockProvider(LockProvider shedLock, JdbcTemplate jdbc, String holder) {
        this.shedLock = shedLock;
        this.jdbc = jdbc;
        this.holder = holder;
    }

    /** ShedLock's JDBC provider on {@code job_lock}, holding as this process (host, pid and a random part). */
    static JobLockProvider on(DataSource dataSource) {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        String holder = newHolder();
        return new JobLockProvider(new JdbcTemplateLockProvider(JdbcTemplateLockProvider.Configuration.builder()
                .withJdbcTemplate(jdbc)
                .withTableName("job_lock")
                .withLockedByValue(holder)
                .usingDbTime()
                .build()), jdbc, holder);
    }

    @Override
    public Optional<SimpleLock> lock(LockConfiguration configuration) {
        Optional<SimpleLock> lock = shedLock.lock(configuration);
        if (lock.isPresent() || !giveBackUnheard(configuration)) {
            return lock;
        }
        LOG.warn("Job lock {} was held for this instance by a taking whose answer was lost: given back, taken again",
                configuration.getName());
        return shedLock.lock(configuration);
    }

    private boolean giveBackUnheard(LockConfiguration configuration) {
        long shortestHoldMicros = configuration.getLockAtLeastFor().toNanos() / 1_000;
        return jdbc.update(GIVE_BACK_UNHEARD, configuration.getName(), holder, shortestHoldMicros) == 1;
    }

    String holder() {
        return holder;
    }

    /** Two instances on one host are told apart in the table by their process and a random part. */
    private static String newHolder() {
        String host = System.getenv().getOrDefault("HOSTNAME", "host");
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException | SecurityException unknown) {
            // the environment's name will do
        }
        String holder = host + "/" + ProcessHandle.current().pid() + "/"
                + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        return holder.length() <= 255 ? holder : holder.substring(holder.length() - 255);
    }
}
