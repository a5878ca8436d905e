package io.flashsale.bootstrap.archfixture;

import java.sql.Connection;

/** Breaks the rules on purpose: JDBC outside the MySQL adapter. */
public class BootstrapUsingJdbc {

    public Connection connection;
}
