package io.flashsale.adapter.metrics;

import com.sun.management.OperatingSystemMXBean;

import java.lang.management.ManagementFactory;
import java.util.function.DoubleSupplier;

/**
 * The machine's CPU use since it was last asked, 0 to 1, as the JDK reads it (the container's share where the JVM
 * runs in one); negative when the platform does not tell. Read by {@code BuyerCrowd} once per look (ADR 65).
 */
public final class MachineCpu implements DoubleSupplier {

    private final OperatingSystemMXBean os;

    public MachineCpu() {
        this.os = ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);
        // The JDK's first answer covers nothing yet: asked once here, the first look covers the time since.
        os.getCpuLoad();
    }

    @Override
    public double getAsDouble() {
        return os.getCpuLoad();
    }
}
