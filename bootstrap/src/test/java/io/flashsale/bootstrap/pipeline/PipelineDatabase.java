package io.flashsale.bootstrap.pipeline;

import io.flashsale.testsupport.TestServices;

/** The pipeline tests' own database, re-created once per test JVM so Flyway builds this working tree's schema. */
final class PipelineDatabase {

    /** One per test JVM: overlapping runs on one server never share it. */
    static final String NAME = TestServices.mariadb().freshDatabase("flashsale_it_pipeline");

    private static boolean recreated;

    private PipelineDatabase() {
    }

    static String url() {
        prepare();
        return TestServices.mariadb().jdbcUrl(NAME);
    }

    /** The database reached through a proxy on this host's {@code port}. */
    static String urlThrough(int port) {
        prepare();
        return "jdbc:mysql://127.0.0.1:" + port + "/" + NAME + "?useSSL=false&allowPublicKeyRetrieval=true";
    }

    private static synchronized void prepare() {
        if (!recreated) {
            TestServices.mariadb().recreateDatabase(NAME);
            recreated = true;
        }
    }
}
