package io.flashsale.adapter.mysql;

import org.apache.ibatis.builder.xml.XMLMapperBuilder;
import org.apache.ibatis.executor.parameter.ParameterHandler;
import org.apache.ibatis.mapping.BoundSql;
import org.apache.ibatis.mapping.MappedStatement;
import org.apache.ibatis.mapping.ParameterMapping;
import org.apache.ibatis.reflection.MetaObject;
import org.apache.ibatis.session.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The statements of OrderDao.xml in {@link RowsLanguageDriver} against the same statements in MyBatis' own dynamic SQL
 * (the lang attribute removed): for every row count, the same SQL and the same values in the same places, bound with
 * the same JDBC types and type handlers, and the same setter calls made by each one's parameter handler on a statement
 * that records them. The statements themselves run against MariaDB in the repository ITs.
 */
@Timeout(60)
class RowsLanguageDriverTest {

    private static final String MAPPER = "io/flashsale/adapter/mysql/OrderDao.xml";
    private static final String LANG = "lang=\"io.flashsale.adapter.mysql.RowsLanguageDriver\"";
    private static final Instant AT = Instant.parse("2026-12-01T10:15:30.123Z");

    private final Configuration rows = configuration(mapperText());
    private final Configuration dynamic = configuration(mapperText().replace(LANG, ""));
    private final Random random = new Random(20261201L);

    @Test
    void everyBatchStatementOfTheMapperUsesTheRowsLanguage() {
        assertThat(mapperText().split(LANG, -1)).hasSize(17);
        assertThat(rows.getMappedStatement(statement("insertOrders")).getSqlSource())
                .isInstanceOf(RowsSqlSource.class);
    }

    @Test
    void ordersWithNullableTimesBindAsTheDynamicStatementDoes() {
        sameForEverySize("insertOrders", "orders", i -> new OrderRow("r" + i, "a", "b" + i, "q" + i,
                i % 3 == 0 ? "FAILED" : "ORDERED", i % 3 == 0 ? "OUT_OF_STOCK" : null, AT, AT.plusMillis(i),
                i % 3 == 0 ? null : AT, null, null, null, i % 3 == 0 ? null : AT.plusSeconds(60)), Map.of());
    }

    @Test
    void aliasesBindAsTheDynamicStatementDoes() {
        sameForEverySize("insertAliases", "aliases", i -> new ReservationAliasRow("r" + i, "o" + i, "a", "b" + i,
                AT.plusMillis(i)), Map.of());
    }

    @Test
    void linesFlowsAndPurchasesBindAsTheDynamicStatementsDo() {
        sameForEverySize("insertLines", "lines", i -> new OrderLineRow("r" + i, "s" + i % 2, i % 2, 1 + i % 3),
                Map.of());
        sameForEverySize("insertStockFlows", "flows", i -> new StockFlowRow("a", "s", "r" + i, StockFlowRow.SALE,
                1 + i, AT), Map.of());
        sameForEverySize("addToPurchases", "rows", i -> new PurchaseRow("a", "b" + i, "s", i), Map.of());
        sameForEverySize("createPurchaseRows", "rows", i -> new PurchaseRow("a", "b" + i, "s", 0), Map.of());
        sameForEverySize("subtractFromPurchases", "rows", i -> new PurchaseRow("a", "b" + i, "s", 1), Map.of());
    }

    @Test
    void readsAndLocksBindAsTheDynamicStatementsDo() {
        sameForEverySize("selectOrders", "reservationIds", i -> "r" + i, Map.of());
        sameForEverySize("selectLinesOf", "reservationIds", i -> "r" + i, Map.of());
        sameForEverySize("selectRequestHolders", "requests", i -> new RequestKey("a", "b" + i, "q"), Map.of());
        sameForEverySize("lockPurchases", "rows", i -> new PurchaseRow("a", "b" + i, "s", 0), Map.of());
        sameForEverySize("lockItems", "items", i -> new SkuSaleRow("a", "s" + i, 0), Map.of());
        sameForEverySize("readItems", "items", i -> new SkuSaleRow("a", "s" + i, 0), Map.of());
        sameForEverySize("selectItemTerms", "activityIds", i -> "a" + i, Map.of());
    }

    @Test
    void parametersBeforeTheRowsKeepTheirPlace() {
        sameForEverySize("expireOrdered", "reservationIds", i -> "r" + i, Map.of("at", AT));
        sameForEverySize("clearRestoresDue", "reservationIds", i -> "r" + i, Map.of());
    }

    @Test
    void aStatementWhoseTextCouldChangePerCallIsRefusedAtStartUp() {
        assertThatThrownBy(() -> configuration(mapper("""
                <update id="u" lang="io.flashsale.adapter.mysql.RowsLanguageDriver">
                  UPDATE t SET a = 1 <if test="x != null">, b = #{x}</if>
                  WHERE id IN <foreach collection="ids" item="id" open="(" separator="," close=")">#{id}</foreach>
                </update>""")))
                .hasRootCauseInstanceOf(IllegalArgumentException.class)
                .rootCause().hasMessageContaining("only text and one <foreach>");
        assertThatThrownBy(() -> configuration(mapper("""
                <update id="u" lang="io.flashsale.adapter.mysql.RowsLanguageDriver">
                  UPDATE ${table} SET a = 1
                  WHERE id IN <foreach collection="ids" item="id" open="(" separator="," close=")">#{id}</foreach>
                </update>""")))
                .rootCause().hasMessageContaining("${}");
        assertThatThrownBy(() -> configuration(mapper("""
                <update id="u" lang="io.flashsale.adapter.mysql.RowsLanguageDriver">
                  UPDATE t SET a = 1 WHERE id IN
                  <foreach collection="ids" item="id" open="(" separator="," close=")">
                    <if test="id != null">#{id}</if>
                  </foreach>
                </update>""")))
                .rootCause().hasMessageContaining("text only");
    }

    @Test
    void rowsThatAreNotAListAreRefused() {
        BoundSqlSource source = new BoundSqlSource(rows, "selectOrders");
        assertThatThrownBy(() -> source.bound(Map.of("reservationIds", java.util.Set.of("r1"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be a List");
    }

    private <T> void sameForEverySize(String id, String collection, IntFunction<T> row, Map<String, Object> others) {
        // Sizes in any order: the rows' mappings grow and are reused across calls.
        List<Integer> sizes = new ArrayList<>(List.of(1, 2, 3, 7, 1, 40, 5, 500, 17, 499, 2));
        for (int i = 0; i < 5; i++) {
            sizes.add(1 + random.nextInt(500));
        }
        for (int size : sizes) {
            List<T> items = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                items.add(row.apply(i + size * 1000));
            }
            Map<String, Object> parameters = new HashMap<>(others);
            parameters.put(collection, items);
            BoundSql expected = new BoundSqlSource(dynamic, id).bound(parameters);
            BoundSql actual = new BoundSqlSource(rows, id).bound(parameters);
            assertThat(squeezed(actual.getSql())).as("%s of %d rows", id, size).isEqualTo(squeezed(expected.getSql()));
            assertThat(bindings(rows, actual)).as("%s of %d rows", id, size).isEqualTo(bindings(dynamic, expected));
            assertThat(bound(rows, id, parameters, actual)).as("%s of %d rows, as bound", id, size)
                    .isEqualTo(bound(dynamic, id, parameters, expected))
                    .hasSize(actual.getParameterMappings().size());
        }
    }

    /** What DefaultParameterHandler binds at each place: the value, its JDBC type, an explicit type handler. */
    private static List<String> bindings(Configuration configuration, BoundSql bound) {
        MetaObject parameters = configuration.newMetaObject(bound.getParameterObject());
        List<String> bindings = new ArrayList<>();
        for (ParameterMapping mapping : bound.getParameterMappings()) {
            String property = mapping.getProperty();
            Object value = bound.hasAdditionalParameter(property) ? bound.getAdditionalParameter(property)
                    : parameters.getValue(property);
            String handler = mapping.getTypeHandler() instanceof UtcInstantTypeHandler ? " utc" : "";
            bindings.add(value + " " + mapping.getJdbcType() + handler);
        }
        return bindings;
    }

    /**
     * What the statement's own parameter handler sets on a statement (RowsParameterHandler for the rows language,
     * DefaultParameterHandler for the dynamic one): each setter call with its place, value and JDBC type, in order.
     */
    private static List<String> bound(Configuration configuration, String id, Object parameters, BoundSql bound) {
        MappedStatement statement = configuration.getMappedStatement(statement(id));
        ParameterHandler handler = statement.getLang().createParameterHandler(statement, parameters, bound);
        List<String> calls = new ArrayList<>();
        PreparedStatement recording = (PreparedStatement) Proxy.newProxyInstance(RowsLanguageDriverTest.class.getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, (proxy, method, arguments) -> {
                    if (!method.getName().startsWith("set")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    calls.add(method.getName() + Arrays.deepToString(arguments));
                    return null;
                });
        try {
            handler.setParameters(recording);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return calls;
    }

    private static String squeezed(String sql) {
        return sql.replaceAll("\\s+", " ").replaceAll(" ?([(),]) ?", "$1").trim();
    }

    private record BoundSqlSource(Configuration configuration, String id) {

        BoundSql bound(Object parameters) {
            return configuration.getMappedStatement(statement(id)).getBoundSql(parameters);
        }
    }

    private static String statement(String id) {
        return "io.flashsale.adapter.mysql.OrderDao." + id;
    }

    private static Configuration configuration(String mapperXml) {
        Configuration configuration = new Configuration();
        new XMLMapperBuilder(new ByteArrayInputStream(mapperXml.getBytes(StandardCharsets.UTF_8)), configuration,
                "test:" + mapperXml.hashCode(), configuration.getSqlFragments()).parse();
        return configuration;
    }

    private static String mapper(String statements) {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE mapper PUBLIC "-//mybatis.org//DTD Mapper 3.0//EN" "https://mybatis.org/dtd/mybatis-3-mapper.dtd">
                <mapper namespace="io.flashsale.adapter.mysql.RowsLanguageDriverTest">
                """ + statements + "\n</mapper>\n";
    }

    private static String mapperText() {
        try (InputStream in = RowsLanguageDriverTest.class.getClassLoader().getResourceAsStream(MAPPER)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
