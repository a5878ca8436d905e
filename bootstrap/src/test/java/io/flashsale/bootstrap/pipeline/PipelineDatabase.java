package io.flashsale.bootstrap.pipeline;

import io.flashsale.testsupport.SpringDatasource;
import io.flashsale.testsupport.TestServices;

/**
 * The pipeline tests' own database: one per test JVM, empty when made (so Flyway builds this working tree's schema),
 * shared by their contexts.
 */
final class PipelineDatabase {

    /** One per test JVM: overlapping runs on one server never share it. */
    static final String NAME = TestServices.mariadb().freshDatabase("flashsale_it_pipeline");

    private PipelineDatabase() {
    }

    static SpringDatasource datasource() {
        return TestServices.mariadb().springDatasource(NAME);
    }

    /** The database reached through a proxy on this host's {@code port}. */
    static SpringDatasource datasourceThrough(int port) {
        return TestServices.mariadb().through(port).springDatasource(NAME);
    }
}
