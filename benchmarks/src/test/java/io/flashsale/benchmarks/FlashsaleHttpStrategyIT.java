package io.flashsale.benchmarks;

import io.flashsale.benchmarks.http.FlashsaleHttpStrategy;

import java.nio.file.Path;

/** The packaged service jar (built by bootstrap's package phase earlier in the same reactor run) over HTTP. */
class FlashsaleHttpStrategyIT extends CorrectStrategyContract {

    @Override
    protected InventoryStrategy create() {
        return new FlashsaleHttpStrategy(Path.of(System.getProperty("flashsale.jar", "../bootstrap/target/flashsale.jar")),
                Servers.mysql(), Servers.redis());
    }

    @Override
    protected int clients() {
        return 32;
    }
}
