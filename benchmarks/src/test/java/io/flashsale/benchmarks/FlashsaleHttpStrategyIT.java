package io.flashsale.benchmarks;

import io.flashsale.benchmarks.http.FlashsaleHttpStrategy;

import java.nio.file.Path;
import java.util.List;

/** The packaged service jar (built by bootstrap's package phase earlier in the same reactor run) over HTTP. */
class FlashsaleHttpStrategyIT extends CorrectStrategyContract {

    @Override
    protected InventoryStrategy create() {
        // C1 only: the service starts sooner, and these tests count, they do not time.
        return new FlashsaleHttpStrategy(Path.of(System.getProperty("flashsale.jar", "../bootstrap/target/flashsale.jar")),
                Servers.mysql(), Servers.redis(), List.of("-Xmx512m", "-XX:TieredStopAtLevel=1"));
    }

    @Override
    protected int clients() {
        return 32;
    }
}
