package io.flashsale.adapter.kafka.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One broker per data directory, across threads and processes. Kafka's own lock is taken only after its
 * controller has already written to the metadata log, so a second broker on a directory must be stopped first.
 */
final class DataDirectoryLock implements AutoCloseable {

    static final String FILE_NAME = "flashsale-broker.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DataDirectoryLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    static DataDirectoryLock acquire(Path dataDirectory) {
        FileChannel channel = null;
        try {
            Files.createDirectories(dataDirectory);
            channel = FileChannel.open(dataDirectory.resolve(FILE_NAME), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = tryLock(channel);
            if (lock == null) {
                throw new IllegalStateException("another Kafka broker is using the data directory " + dataDirectory);
            }
            return new DataDirectoryLock(channel, lock);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new UncheckedIOException("cannot lock the Kafka data directory " + dataDirectory, e);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot release the Kafka data directory lock", e);
        }
    }

    /** Null when another process holds the lock, or another broker of this JVM. */
    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException heldInThisJvm) {
            return null;
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // The lock was not taken; nothing else to undo.
            }
        }
    }
}
