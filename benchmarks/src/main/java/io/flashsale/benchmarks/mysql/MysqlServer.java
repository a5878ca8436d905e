package io.flashsale.benchmarks.mysql;

/** Where the MySQL-compatible server is; the benchmark makes its own database there and drops it afterwards. */
public record MysqlServer(String host, int port, String user, String password) {

    public String url(String database) {
        return "jdbc:mysql://" + host + ":" + port + "/" + database + "?useSSL=false&allowPublicKeyRetrieval=true";
    }
}
